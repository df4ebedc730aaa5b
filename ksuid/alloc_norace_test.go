//go:build !race

package ksuid_test

import (
	"testing"

	"github.com/sortid/sortid/ksuid"
)

func TestNewNoAllocs(t *testing.T) {
	var sink ksuid.KSUID
	g := ksuid.NewGenerator()
	mono := ksuid.NewGenerator(ksuid.WithMonotonic())
	for name, f := range map[string]func(){
		"New":                     func() { sink = ksuid.New() },
		"Generator.New":           func() { sink, _ = g.New() },
		"monotonic Generator.New": func() { sink, _ = mono.New() },
	} {
		if n := testing.AllocsPerRun(10000, f); n != 0 {
			t.Errorf("%s: %v allocations, want 0", name, n)
		}
	}
	if sink.IsZero() {
		t.Error("New returned the zero KSUID")
	}
}
