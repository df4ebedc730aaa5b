package containers

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// PgBouncer in front of the PostgreSQL 18 server, as users run it:
// Debian's pgbouncer (1.18 on bookworm), transaction pooling, fewer
// server connections than clients. It runs on this host, not in a
// container: scripts/install-packages.sh installs it.
const (
	// bouncerServerConns is PgBouncer's default_pool_size: the server
	// connections one user and database share.
	bouncerServerConns = 2
)

// startPgBouncer starts PgBouncer for the database of servers.pgConfig
// and sets servers.bouncerConfig to it. stop ends the process.
func startPgBouncer(ctx context.Context) (func(), error) {
	bin, err := exec.LookPath("pgbouncer")
	if err != nil {
		if _, statErr := os.Stat("/usr/sbin/pgbouncer"); statErr != nil {
			return func() {}, fmt.Errorf("pgbouncer is not installed (Debian package pgbouncer; scripts/install-packages.sh installs it): %w", err)
		}
		bin = "/usr/sbin/pgbouncer"
	}
	pg := servers.pgConfig.ConnConfig
	dir, err := os.MkdirTemp("", "sortid-pgbouncer-")
	if err != nil {
		return func() {}, err
	}
	// Until the process runs, stopping is removing the directory; the
	// caller calls what is returned, error or not.
	removeDir := func() { os.RemoveAll(dir) }
	port, err := freePort()
	if err != nil {
		return removeDir, err
	}
	// Clients are trusted (the user must be in the auth file); PgBouncer
	// logs in to the server with the password in the database line.
	ini := fmt.Sprintf(`[databases]
* = host=%s port=%d user=%s password=%s

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = %d
unix_socket_dir =
auth_type = trust
auth_file = %s
pool_mode = transaction
default_pool_size = %d
max_client_conn = 200
ignore_startup_parameters = extra_float_digits
server_reset_query =
`, pg.Host, pg.Port, pg.User, pg.Password, port, filepath.Join(dir, "userlist.txt"), bouncerServerConns)
	files := map[string]string{"pgbouncer.ini": ini, "userlist.txt": fmt.Sprintf("%q %q\n", pg.User, pg.Password)}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return removeDir, err
		}
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		return removeDir, err
	}
	logFile, err := os.Create(filepath.Join(dir, "pgbouncer.log"))
	if err != nil {
		return removeDir, err
	}
	args := []string{filepath.Join(dir, "pgbouncer.ini")}
	if os.Geteuid() == 0 {
		// PgBouncer refuses to run as root.
		if _, err := user.Lookup("postgres"); err != nil {
			return removeDir, fmt.Errorf("pgbouncer will not run as root, and there is no postgres user to run it as: %w", err)
		}
		args = append([]string{"-u", "postgres"}, args...)
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	// Ends with the test binary, also when that is killed, while it runs
	// as root; as postgres (-u) the kernel clears the death signal when
	// PgBouncer drops root, and scripts/test.sh ends a leftover one.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return removeDir, fmt.Errorf("starting pgbouncer: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stop := func() {
		cmd.Process.Signal(syscall.SIGINT) // immediate shutdown
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
		logFile.Close()
		removeDir()
	}
	cfg := pg.Copy()
	cfg.Host, cfg.Port = "127.0.0.1", uint16(port)
	cfg.Fallbacks = nil
	// Wait until it answers a query through to the server.
	deadline := time.Now().Add(20 * time.Second)
	for {
		var version string
		err = func() error {
			c := cfg.Copy()
			c.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
			conn, err := pgx.ConnectConfig(ctx, c)
			if err != nil {
				return err
			}
			defer conn.Close(ctx)
			return conn.QueryRow(ctx, "SELECT version()").Scan(&version)
		}()
		if err == nil {
			break
		}
		select {
		case e := <-exited:
			exited <- e
			log, _ := os.ReadFile(filepath.Join(dir, "pgbouncer.log"))
			stop()
			return func() {}, fmt.Errorf("pgbouncer exited (%v): %s", e, log)
		default:
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, "pgbouncer.log"))
			stop()
			return func() {}, fmt.Errorf("pgbouncer did not answer within 20 s (%v): %s", err, log)
		}
		time.Sleep(100 * time.Millisecond)
	}
	out, _ := exec.Command(bin, "--version").Output()
	servers.bouncerVersion = strings.SplitN(strings.TrimSpace(string(out)), "\n", 2)[0] + fmt.Sprintf(", transaction pooling, %d server connections", bouncerServerConns)
	servers.bouncerConfig = cfg
	return stop, nil
}

// freePort returns a TCP port on 127.0.0.1 that nothing listens on now.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
