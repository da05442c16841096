package api

import (
	"context"
	"log/slog"
	"time"
)

func slogString(k, v string) slog.Attr                 { return slog.String(k, v) }
func slogInt(k string, v int) slog.Attr                { return slog.Int(k, v) }
func slogDuration(k string, v time.Duration) slog.Attr { return slog.Duration(k, v) }

func levelFor(status int) slog.Level {
	if status >= 500 {
		return slog.LevelError
	}
	return slog.LevelInfo
}

// minLevel passes on the records of h at level or above: libraries that log
// every session at info (the MCP SDK) keep only their warnings and errors,
// the access log already having a line per request.
type minLevel struct {
	slog.Handler
	level slog.Level
}

func (h minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.level && h.Handler.Enabled(ctx, l)
}

func (h minLevel) WithAttrs(attrs []slog.Attr) slog.Handler {
	return minLevel{h.Handler.WithAttrs(attrs), h.level}
}

func (h minLevel) WithGroup(name string) slog.Handler {
	return minLevel{h.Handler.WithGroup(name), h.level}
}
