package ksuid

import (
	"testing"
	"time"

	"github.com/sortid/sortid/internal/idtype/idtypetest"
)

var windowFuncs = idtypetest.Funcs[KSUID]{
	Unit: time.Second, Window: Window, NewAt: NewAt, MinAt: MinAt, MaxAt: MaxAt,
	ErrTimeRange: ErrTimeRange, Pkg: "ksuid",
}

func TestWindowTiles(t *testing.T)  { idtypetest.WindowTiles(t, windowFuncs) }
func TestWindowErrors(t *testing.T) { idtypetest.WindowErrors(t, windowFuncs) }
