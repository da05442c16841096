package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"hash/fnv"
)

// TryJobLock takes the lock of a named job unless another instance holds
// it, and returns whether it did and the function that releases it. On
// PostgreSQL it is a session advisory lock on a connection set aside for
// the job, so that instances sharing the database run the job once; it is
// released with the connection if the process dies. A SQLite database
// belongs to one process (see the lock file), so the job is always this
// process's to run.
func (s *Store) TryJobLock(ctx context.Context, job string) (ok bool, release func(), err error) {
	if s.driver != Postgres {
		return true, func() {}, nil
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return false, nil, fmt.Errorf("locking job %s: %w", job, err)
	}
	key := jobKey(job)
	if err := conn.QueryRowContext(ctx, `SELECT pg_try_advisory_lock($1)`, key).Scan(&ok); err != nil {
		conn.Close()
		return false, nil, fmt.Errorf("locking job %s: %w", job, err)
	}
	if !ok {
		conn.Close()
		return false, func() {}, nil
	}
	return true, func() { unlock(conn, key) }, nil
}

func unlock(conn *sql.Conn, key int64) {
	if _, err := conn.ExecContext(context.Background(), `SELECT pg_advisory_unlock($1)`, key); err != nil {
		// The session would keep the lock: discard the connection, which
		// ends the session instead of returning it to the pool.
		_ = conn.Raw(func(any) error { return driver.ErrBadConn })
	}
	conn.Close()
}

// jobKey maps a job name to an advisory-lock key, away from the
// migration lock's.
func jobKey(job string) int64 {
	h := fnv.New64a()
	h.Write([]byte("entrycheck job " + job))
	return int64(h.Sum64() >> 1)
}
