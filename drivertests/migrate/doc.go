// Package migrate holds the tests of the README's migration tables
// (docs/migrating.md): each row, run against the library it replaces,
// segmentio/ksuid or mongo-driver's bson.ObjectID.
package migrate
