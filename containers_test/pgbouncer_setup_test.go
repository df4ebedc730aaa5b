package containers

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/testcontainers/testcontainers-go"
	tcexec "github.com/testcontainers/testcontainers-go/exec"
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
	if err := waitForBouncer(ctx, cfg, func() error {
		select {
		case e := <-exited:
			exited <- e
			log, _ := os.ReadFile(filepath.Join(dir, "pgbouncer.log"))
			return fmt.Errorf("pgbouncer exited (%v): %s", e, log)
		default:
			return nil
		}
	}); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "pgbouncer.log"))
		stop()
		return func() {}, fmt.Errorf("%w; its log: %s", err, log)
	}
	out, _ := exec.Command(bin, "--version").Output()
	servers.bouncerVersion = strings.SplitN(strings.TrimSpace(string(out)), "\n", 2)[0] + fmt.Sprintf(", transaction pooling, %d server connections", bouncerServerConns)
	servers.bouncerConfig = cfg
	return stop, nil
}

// waitForBouncer waits until a PgBouncer answers a query through to the
// server, or dead reports it has exited.
func waitForBouncer(ctx context.Context, cfg *pgx.ConnConfig, dead func() error) error {
	deadline := time.Now().Add(20 * time.Second)
	for {
		var version string
		err := func() error {
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
			return nil
		}
		if err := dead(); err != nil {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("pgbouncer did not answer within 20 s: %w", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// bouncerPort is the port of PgBouncer 1.26 in the PostgreSQL 18
// container.
const bouncerPort = "6432/tcp"

// startPgBouncerIn starts the PgBouncer of the PostgreSQL 18 image
// (Debian sid's, 1.26) in its container c, in front of that server over
// its Unix socket, set as the host's 1.18 is, with max_prepared_statements
// at its default (200), and sets servers.bouncer126Config to it. It ends
// with the container.
func startPgBouncerIn(ctx context.Context, c testcontainers.Container) error {
	pg := servers.pgConfig.ConnConfig
	ini := fmt.Sprintf(`[databases]
* = host=/var/run/postgresql user=%s

[pgbouncer]
listen_addr = 0.0.0.0
listen_port = 6432
unix_socket_dir =
auth_type = trust
auth_file = /tmp/pgbouncer-users.txt
pool_mode = transaction
default_pool_size = %d
max_client_conn = 200
ignore_startup_parameters = extra_float_digits
server_reset_query =
logfile = /tmp/pgbouncer.log
pidfile = /tmp/pgbouncer.pid
`, pg.User, bouncerServerConns)
	files := map[string]string{"/tmp/pgbouncer.ini": ini, "/tmp/pgbouncer-users.txt": fmt.Sprintf("%q %q\n", pg.User, pg.Password)}
	for path, text := range files {
		if err := c.CopyToContainer(ctx, []byte(text), path, 0o644); err != nil {
			return fmt.Errorf("PgBouncer in the PostgreSQL 18 container: %w", err)
		}
	}
	run := func(cmd ...string) (string, error) {
		code, r, err := c.Exec(ctx, cmd, tcexec.Multiplexed())
		if err != nil {
			return "", err
		}
		out, _ := io.ReadAll(r)
		if code != 0 {
			return "", fmt.Errorf("%s: exit status %d: %s", strings.Join(cmd, " "), code, out)
		}
		return strings.TrimSpace(string(out)), nil
	}
	if _, err := run("runuser", "-u", "postgres", "--", "pgbouncer", "-d", "/tmp/pgbouncer.ini"); err != nil {
		return fmt.Errorf("starting PgBouncer in the PostgreSQL 18 container: %w", err)
	}
	host, err := c.Host(ctx)
	if err != nil {
		return err
	}
	port, err := c.MappedPort(ctx, bouncerPort)
	if err != nil {
		return err
	}
	cfg := pg.Copy()
	cfg.Host, cfg.Port = host, uint16(port.Num())
	cfg.Fallbacks = nil
	if err := waitForBouncer(ctx, cfg, func() error { return nil }); err != nil {
		log, _ := run("cat", "/tmp/pgbouncer.log")
		return fmt.Errorf("PgBouncer in the PostgreSQL 18 container: %w; its log: %s", err, log)
	}
	version, err := run("pgbouncer", "--version")
	if err != nil {
		return err
	}
	servers.bouncer126Version = strings.SplitN(version, "\n", 2)[0] + fmt.Sprintf(", transaction pooling, %d server connections", bouncerServerConns)
	servers.bouncer126Config = cfg
	return nil
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
