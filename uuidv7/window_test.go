package uuidv7

import (
	"testing"
	"time"

	"github.com/sortid/sortid/internal/idtype/idtypetest"
)

var windowFuncs = idtypetest.Funcs[UUID]{
	Unit: time.Millisecond, Window: Window, NewAt: NewAt, MinAt: MinAt, MaxAt: MaxAt,
	ErrTimeRange: ErrTimeRange, Pkg: "uuidv7",
}

func TestWindowTiles(t *testing.T)  { idtypetest.WindowTiles(t, windowFuncs) }
func TestWindowErrors(t *testing.T) { idtypetest.WindowErrors(t, windowFuncs) }
