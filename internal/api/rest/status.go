package rest

import (
	"context"
	"net/http"
	"time"

	"github.com/entrycheck/entrycheck/internal/api/response"
)

// Stats is the body of GET /stats.json: today's counters.
type Stats struct {
	Date              string `json:"date"`
	FreeChecksToday   int    `json:"free_checks_today"`
	FreeChecksCeiling int    `json:"free_checks_ceiling"`
	PaidCallsToday    int64  `json:"paid_calls_today"`
	DatasetVersion    string `json:"dataset_version"`
	ResetAt           string `json:"reset_at"`
}

// Stats answers the live counters: free checks served today (the worldwide
// bucket), paid calls today and the dataset version.
func (e *Endpoints) Stats(w http.ResponseWriter, r *http.Request) {
	body, err := e.StatsAnswer(r.Context())
	if err != nil {
		response.Error(e.Log, w, r, err)
		return
	}
	response.JSON(w, http.StatusOK, body, response.CacheLive)
}

// StatsAnswer is the body of GET /stats.json, which the A2A skill
// dataset-info answers too.
func (e *Endpoints) StatsAnswer(ctx context.Context) (any, error) {
	today, err := e.Quotas.Today(ctx)
	if err != nil {
		return nil, err
	}
	return Stats{
		Date: today.Date, FreeChecksToday: today.FreeChecks, FreeChecksCeiling: e.Quotas.Limits.Global,
		PaidCallsToday: today.PaidCalls, DatasetVersion: e.Evaluator().Snapshot().Version(),
		ResetAt: today.Reset.Format(time.RFC3339),
	}, nil
}

// Health reports whether the service can answer: the dataset is loaded and
// the database answers within a second. The ping is the database's, not
// the caller's: a client that hangs up does not make the database look down.
func (e *Endpoints) Health(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), time.Second)
	defer cancel()
	status, code, db := "ok", http.StatusOK, "ok"
	if err := e.Database.Ping(ctx); err != nil {
		status, code, db = "degraded", http.StatusServiceUnavailable, "unreachable"
	}
	response.JSON(w, code, Health{Status: status, Database: db, DatabaseKind: e.Database.Kind(), DatasetVersion: e.Evaluator().Snapshot().Version()}, response.CacheNone)
}

// Health is the body of GET /healthz.
type Health struct {
	Status         string `json:"status"`
	Database       string `json:"database"`
	DatabaseKind   string `json:"database_kind"`
	DatasetVersion string `json:"dataset_version"`
}
