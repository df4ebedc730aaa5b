package objectid

import (
	"testing"
	"time"

	"github.com/sortid/sortid/internal/idtype/idtypetest"
)

var windowFuncs = idtypetest.Funcs[ObjectID]{
	Unit: time.Second, Window: Window, NewAt: NewAt, MinAt: MinAt, MaxAt: MaxAt,
	ErrTimeRange: ErrTimeRange, Pkg: "objectid",
}

func TestWindowTiles(t *testing.T)  { idtypetest.WindowTiles(t, windowFuncs) }
func TestWindowErrors(t *testing.T) { idtypetest.WindowErrors(t, windowFuncs) }
