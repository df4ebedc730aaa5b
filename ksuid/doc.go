// Package ksuid implements KSUIDs: K-sortable unique identifiers that sort
// by creation time, as bytes and as text, with no coordination between the
// machines that make them.
//
// A KSUID is 20 bytes: a big-endian uint32 count of seconds since the KSUID
// epoch, Unix 1400000000 (2014-05-13T16:53:20Z), then a 16-byte payload. It
// can hold times up to 2150-06-19T23:21:35Z; times outside that range are
// errors, never wrapped around. The IDs this package makes lay out the
// payload so that they sort by time to a fraction of a second:
//
//	bytes 0-3    timestamp, seconds since 2014-05-13T16:53:20Z
//	bytes 4-6    fraction of the second, in units of 2^-24 s (about 60 ns)
//	bytes 7-19   104 random bits
//
// Any payload is a valid KSUID: IDs from other libraries, whose payload is
// 128 random bits, parse, compare and store as these do.
//
// Its text form is exactly 27 characters of base62 (0-9A-Za-z, in ASCII
// order), left-padded with '0', for example
// "0qjBBlJIfbVLKwnJn4xpLGDr00e". Because the digits are in ASCII order,
// comparing two texts byte by byte gives the same answer as comparing the
// IDs. Parsing is strict: each KSUID has one text form, and anything else
// is an error wrapping ErrInvalidLength, ErrInvalidCharacter or
// ErrOverflow. Every decoder (text, JSON, binary, SQL, BSON) quotes the
// rejected input, bounded, wraps one of the package's sentinel errors and
// leaves its receiver unchanged.
//
// # Making IDs
//
// New uses the system's real-time clock and crypto/rand. It takes no lock,
// so it scales with cores. Its IDs sort by the time they were made to the
// fraction of a second; only IDs of the same 60 ns tick are in random
// order. NewAt does the same for a given time, for backfills. A Generator
// can take another clock or random source (WithClock, WithRand) and can
// make IDs that are strictly increasing within one generator and in clock
// order across generators, while staying hard to guess (WithMonotonic).
// FromParts builds a KSUID from a time and a payload; MinAt and MaxAt give
// the bounds of a time window for range queries.
//
// New and the generators read the real-time clock on every platform, also
// inside a testing/synctest bubble, whose fake clock starts before the
// KSUID epoch; WithClock dates IDs by another clock.
//
// # The zero value
//
// The zero KSUID ("000000000000000000000000000") is an ordinary value in
// every encoding: text, binary, JSON, SQL and BSON write it as they write
// any other ID, and never as null. Use a pointer or NullKSUID where a value
// may be missing; reading a null into a KSUID is an error wrapping ErrNull.
//
// # Databases
//
// KSUID implements driver.Valuer (the text form) and sql.Scanner (text, or
// the 20 raw bytes), and mongo-driver v2's bson.ValueMarshaler (the
// 27-character string, the one form KSUIDs are stored in) and
// bson.ValueUnmarshaler (the string, or the binary of subtype 0 that
// earlier versions wrote) without importing it. The
// sqltype, bsoncodec and gormplugin packages of this module make the type
// native to pgx, MongoDB and GORM.
//
// # Storage
//
// Store KSUIDs where byte order is kept: as 20 raw bytes (PostgreSQL
// bytea, MySQL BINARY(20), SQLite BLOB) or as the text form under a binary
// collation (PostgreSQL text COLLATE "C", MySQL CHAR(27) with ascii_bin).
// A linguistic collation such as PostgreSQL's "en-US-x-icu" sorts 'a'
// next to 'A' and breaks time order.
package ksuid
