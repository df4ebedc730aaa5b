// Package drivertests holds no code. Its packages are tests of sortid
// that need a driver or a browser the library does not: gormsqlite runs
// gormplugin on SQLite (cgo), and browser drives the sortid command's page
// in headless Chromium. They are a module of their own so that the
// library's go.mod lists only what its packages import.
package drivertests
