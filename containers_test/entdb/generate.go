// Package entdb is the ent client generated from ./schema, used by the
// integration tests.
package entdb

//go:generate go tool ent generate ./schema --target .
