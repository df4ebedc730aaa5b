// Package bench compares sortid with the libraries people use today for the
// same job. It is a module of its own so that those peers never enter
// sortid's go.mod. It has no code of its own, only benchmarks:
//
//	cd bench && go test -run '^$' -bench . -benchmem
package bench
