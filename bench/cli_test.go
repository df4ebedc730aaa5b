package bench

import (
	"bytes"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// BenchmarkCommand runs the sortid command and segmentio/ksuid's own
// command, each printing cliIDs KSUIDs to a pipe that is drained and
// counted, and reports IDs per second.
func BenchmarkCommand(b *testing.B) {
	dir := b.TempDir()
	sortid := filepath.Join(dir, "sortid")
	ksuidCmd := filepath.Join(dir, "ksuid")
	for pkg, out := range map[string]string{
		"github.com/sortid/sortid/cmd/sortid":  sortid,
		"github.com/segmentio/ksuid/cmd/ksuid": ksuidCmd,
	} {
		if msg, err := exec.Command("go", "build", "-o", out, pkg).CombinedOutput(); err != nil {
			b.Fatalf("building %s: %v\n%s", pkg, err, msg)
		}
	}
	n := strconv.Itoa(cliIDs)
	for name, bin := range map[string]string{"sortid": sortid, "segmentio": ksuidCmd} {
		b.Run(name, func(b *testing.B) {
			var elapsed time.Duration
			for b.Loop() {
				cmd := exec.Command(bin, "-n", n)
				out, err := cmd.StdoutPipe()
				if err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				if err := cmd.Start(); err != nil {
					b.Fatal(err)
				}
				lines, err := countLines(out)
				if err := cmd.Wait(); err != nil {
					b.Fatal(err)
				}
				elapsed += time.Since(start)
				if err != nil || lines != cliIDs {
					b.Fatalf("%s printed %d lines (%v), want %d", name, lines, err, cliIDs)
				}
			}
			b.ReportMetric(float64(cliIDs)*float64(b.N)/elapsed.Seconds(), "IDs/s")
		})
	}
}

const cliIDs = 1_000_000

func countLines(r io.Reader) (int, error) {
	buf := make([]byte, 64<<10)
	n := 0
	for {
		k, err := r.Read(buf)
		n += bytes.Count(buf[:k], []byte{'\n'})
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}
