package a2aserver

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
)

// taskStore keeps the tasks in memory, each for its lifetime from its
// first save and at most max of them, the oldest forgotten first: a task
// lives only as long as its payment may take. A task is stored as its
// JSON, so that no caller shares the stored copy. Tasks are not shared
// between instances: behind a load balancer, the payment message of a
// task must reach the instance that made its offer.
type taskStore struct {
	lifetime time.Duration
	max      int
	now      func() time.Time

	mu    sync.Mutex
	tasks map[a2a.TaskID]storedTask
	// order lists the tasks by their first save, oldest first.
	order []a2a.TaskID
}

type storedTask struct {
	json    []byte
	created time.Time
}

// Save implements a2asrv.TaskStore.
func (s *taskStore) Save(_ context.Context, task *a2a.Task) error {
	b, err := json.Marshal(task)
	if err != nil {
		return fmt.Errorf("encoding task %s: %w", task.ID, err)
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tasks == nil {
		s.tasks = map[a2a.TaskID]storedTask{}
	}
	st, ok := s.tasks[task.ID]
	if !ok {
		st.created = now
		s.order = append(s.order, task.ID)
	}
	st.json = b
	s.tasks[task.ID] = st
	for len(s.order) > 0 {
		oldest := s.order[0]
		if len(s.tasks) <= s.max && now.Sub(s.tasks[oldest].created) < s.lifetime {
			break
		}
		delete(s.tasks, oldest)
		s.order = s.order[1:]
	}
	return nil
}

// Get implements a2asrv.TaskStore.
func (s *taskStore) Get(_ context.Context, id a2a.TaskID) (*a2a.Task, error) {
	s.mu.Lock()
	st, ok := s.tasks[id]
	s.mu.Unlock()
	if !ok || s.now().Sub(st.created) >= s.lifetime {
		return nil, a2a.ErrTaskNotFound
	}
	var t a2a.Task
	if err := json.Unmarshal(st.json, &t); err != nil {
		return nil, fmt.Errorf("decoding task %s: %w", id, err)
	}
	return &t, nil
}
