package a2aserver

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
)

func TestTaskStoreForgetsOldTasks(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	s := &taskStore{lifetime: time.Hour, max: 2, now: func() time.Time { return now }}
	ctx := context.Background()
	save := func(id string) {
		t.Helper()
		if err := s.Save(ctx, &a2a.Task{ID: a2a.TaskID(id), ContextID: "c", Status: a2a.TaskStatus{State: a2a.TaskStateInputRequired}}); err != nil {
			t.Fatal(err)
		}
	}
	found := func(id string) bool {
		_, err := s.Get(ctx, a2a.TaskID(id))
		if err != nil && !errors.Is(err, a2a.ErrTaskNotFound) {
			t.Fatal(err)
		}
		return err == nil
	}
	save("a")
	save("b")
	save("a") // a second save keeps its first place
	save("c")
	if found("a") || !found("b") || !found("c") {
		t.Errorf("beyond the bound: a %v, b %v, c %v; want the oldest forgotten", found("a"), found("b"), found("c"))
	}
	got, _ := s.Get(ctx, "b")
	got.Status.State = a2a.TaskStateCompleted
	if again, _ := s.Get(ctx, "b"); again.Status.State != a2a.TaskStateInputRequired {
		t.Error("a caller changed the stored task")
	}
	now = now.Add(time.Hour)
	if found("b") || found("c") {
		t.Error("tasks outlived their lifetime")
	}
}
