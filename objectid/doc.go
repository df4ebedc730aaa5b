// Package objectid implements MongoDB ObjectIds: 12-byte IDs that sort by
// creation time to the second, made without coordination between
// processes.
//
// An ObjectID is a big-endian uint32 of Unix seconds, then a 5-byte random
// value chosen once per process, then a 3-byte big-endian counter that
// starts at a random value, as the current MongoDB specification lays it
// out. Older drivers wrote a 3-byte machine ID and a
// 2-byte process ID where the random value now stands; Legacy reads that
// layout.
//
//	bytes 0-3    timestamp, Unix seconds (1970-01-01 to 2106-02-07T06:28:15Z)
//	bytes 4-8    random value per process  (legacy: machine 4-6, pid 7-8)
//	bytes 9-11   counter
//
// The text form is 24 hex digits, written in lowercase; Parse accepts
// either case and nothing else. JSON writes an ObjectID as a string and
// reads a string or Extended JSON {"$oid": "..."}.
//
// New and NewAt are safe for concurrent use and take no lock: the counter
// is a single atomic add. The process's random value is read from
// crypto/rand on first use, not at import. An ObjectID never repeats
// within a process: each of a second's 2^24 counter values is handed out
// once; New then waits for the next second, while NewAt and a Generator
// return an error wrapping ErrExhausted. Consecutive IDs differ only in the
// counter, so an ObjectID's neighbours are easy to guess.
//
// New and Generator read the system's real-time clock on every platform,
// also inside a testing/synctest bubble; WithClock dates IDs by another
// clock.
//
// # The zero value
//
// The zero ObjectID ("000000000000000000000000") is an ordinary value in
// every encoding, never written as null. Use a pointer or NullObjectID where
// a value may be missing; reading a null into an ObjectID is an error
// wrapping ErrNull.
//
// ObjectID implements driver.Valuer (the hex form), sql.Scanner (hex, or
// the 12 raw bytes), and mongo-driver v2's bson.ValueMarshaler and
// bson.ValueUnmarshaler (a BSON ObjectId) without importing it.
//
// # Storage
//
// In MongoDB, store an ObjectID as a BSON ObjectId. In SQL databases use
// 12 raw bytes (PostgreSQL bytea, MySQL BINARY(12)) or char(24); hex
// digits sort the same under any collation only when they are all one
// case, which String guarantees.
package objectid
