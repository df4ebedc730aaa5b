// Package sortid is the documentation root of the sortid core module:
// sortable unique IDs for Go, made to be database keys. It holds no code;
// import the packages below.
//
// The core module, github.com/sortid/sortid, requires no other module:
//
//   - [github.com/sortid/sortid/ksuid]: KSUIDs, 20 bytes (a 4-byte
//     timestamp and 16 random bytes), 27 base62 characters; a monotonic
//     generator orders them to a fraction of a second.
//   - [github.com/sortid/sortid/objectid]: MongoDB ObjectIds, 12 bytes, 24
//     hex characters, and the legacy layout older data carries.
//   - [github.com/sortid/sortid/uuidv7]: UUIDv7 (RFC 9562), 16 bytes, 36
//     characters; a strictly increasing generator; converts to and from
//     the standard library's and google/uuid's UUID.
//   - [github.com/sortid/sortid/pgsql]: sortid's PostgreSQL SQL as text:
//     the install script (sortid sql), the move to the extension, the
//     partition statements; for migration tools to embed.
//
// Each adapter is a module of its own that requires its driver and the
// core:
//
//   - [github.com/sortid/sortid/sqltype]: the IDs in pgx v5, the sortid
//     PostgreSQL extension's types, and the domains ksuid and objectid
//     with SQL functions for all three ID types (sortid sql).
//   - [github.com/sortid/sortid/bsoncodec]: the IDs in mongo-driver v2.
//   - [github.com/sortid/sortid/gormplugin]: GORM primary keys, assigned on
//     create unless the database fills them, in columns that keep time
//     order.
//
// All three ID types sort by time as bytes and as text, need no
// coordination between the machines that make them, and use only the
// standard library. The command github.com/sortid/sortid/cmd/sortid
// makes, inspects and ranges IDs, prints the PostgreSQL install script
// (sortid sql, whole or by ID type), and serves a page to do the same.
package sortid
