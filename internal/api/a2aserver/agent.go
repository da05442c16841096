package a2aserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"
	"github.com/a2aproject/a2a-go/a2asrv/eventqueue"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/api/check"
	"github.com/entrycheck/entrycheck/internal/api/request"
	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/discovery"
)

// agent executes the A2A messages: a new task runs the skill its message
// names; a message in a task waiting for payment pays for it.
type agent struct{ e *Endpoint }

// Execute answers one message with its task in its final state for
// this message: completed with the answer as its artifact, failed, or
// input-required for a payment. The task is written whole, as one event,
// so that the answer reaches the client as the REST route wrote it.
func (a *agent) Execute(ctx context.Context, rc *a2asrv.RequestContext, q eventqueue.Queue) error {
	var t *a2a.Task
	if rc.StoredTask != nil {
		t = a.e.pay(ctx, rc)
	} else {
		t = a.e.run(ctx, rc)
	}
	if err := q.Write(ctx, t); err != nil {
		return fmt.Errorf("writing task %s: %w", t.ID, err)
	}
	return nil
}

// Cancel cancels a task waiting for its payment; no other task lives
// long enough to be canceled.
func (a *agent) Cancel(ctx context.Context, rc *a2asrv.RequestContext, q eventqueue.Queue) error {
	return q.Write(ctx, final(rc, a2a.TaskStateCanceled, nil, nil, text("Canceled; nothing was charged.")))
}

// run answers the first message of a task: the skill its data part names.
func (e *Endpoint) run(ctx context.Context, rc *a2asrv.RequestContext) *a2a.Task {
	id, args, err := skillCall(rc.Message)
	if err != nil {
		return e.refused(ctx, rc, err)
	}
	sk := skillByID(id)
	switch sk.Tier() {
	case discovery.TierFreeCheck:
		return e.freeCheck(ctx, rc, args)
	case discovery.TierPaid:
		resource, compute := e.skills()[id](ctx, args)
		return e.offer(ctx, rc, sk, resource, compute)
	default:
		_, compute := e.skills()[id](ctx, args)
		res, err := compute()
		if err != nil {
			return e.refused(ctx, rc, err)
		}
		return e.answered(rc, res, nil)
	}
}

// freeCheck is the free check of GET /free/check, counted against the
// same buckets: only a valid check is counted.
func (e *Endpoint) freeCheck(ctx context.Context, rc *a2asrv.RequestContext, args json.RawMessage) *a2a.Task {
	c, ok := callerFrom(ctx)
	if !ok {
		return e.refused(ctx, rc, errors.New("A2A message without its HTTP request"))
	}
	req, problems := check.Arguments(args)
	req.RequestID = requestID(ctx)
	res, u, err := e.Checker.Free(ctx, c.r, c.p, req, problems, check.Spend)
	if err != nil {
		return e.refused(ctx, rc, err)
	}
	if u.Exhausted != nil {
		body := e.Quotas.Refusal(req.RequestID, *u.Exhausted, u.Reset)
		return final(rc, a2a.TaskStateFailed, nil, nil, text(body.Message), data(body))
	}
	meta := map[string]any{"rate_limit": map[string]any{
		"scope": u.Own.Scope, "limit": u.Own.Limit, "remaining": max(0, u.Own.Limit-u.Used), "reset_at": u.Reset,
	}}
	return e.answered(rc, res, meta)
}

// skillCall finds the data part that names the skill: its "skill" member
// and the other members, the arguments.
func skillCall(m *a2a.Message) (string, json.RawMessage, error) {
	var found []map[string]any
	for _, p := range m.Parts {
		switch d := p.(type) {
		case a2a.DataPart:
			found = append(found, d.Data)
		case *a2a.DataPart:
			found = append(found, d.Data)
		}
	}
	if len(found) != 1 {
		return "", nil, invalid("parts", fmt.Sprintf("%d data parts", len(found)), "send one data part naming the skill and its arguments, such as "+
			discovery.A2ASkills[1].Example+"; the skills are "+skillIDs())
	}
	args := map[string]any{}
	for k, v := range found[0] {
		args[k] = v
	}
	id, _ := args["skill"].(string)
	delete(args, "skill")
	if skillByID(id).ID == "" {
		return "", nil, invalid("skill", check.Clip(fmt.Sprint(found[0]["skill"])), "unknown skill: the data part's \"skill\" is one of "+skillIDs())
	}
	b, err := json.Marshal(args)
	if err != nil {
		return "", nil, fmt.Errorf("encoding the arguments: %w", err)
	}
	return id, b, nil
}

func skillByID(id string) discovery.A2ASkill {
	for _, sk := range discovery.A2ASkills {
		if sk.ID == id {
			return sk
		}
	}
	return discovery.A2ASkill{}
}

func skillIDs() string {
	var ids []string
	for _, sk := range discovery.A2ASkills {
		ids = append(ids, sk.ID)
	}
	return strings.Join(ids, ", ")
}

// answered completes the task with the answer as its artifact.
func (e *Endpoint) answered(rc *a2asrv.RequestContext, res any, meta map[string]any) *a2a.Task {
	art := &a2a.Artifact{ID: a2a.NewArtifactID(), Name: "answer", Parts: a2a.ContentParts{data(res)}}
	msg := a2a.NewMessageForTask(a2a.MessageRoleAgent, rc, text("Answered; the answer is the artifact."))
	msg.Metadata = meta
	return final(rc, a2a.TaskStateCompleted, msg, art)
}

// refused fails the task with the error body REST would answer, and a
// sentence that says what to fix.
func (e *Endpoint) refused(ctx context.Context, rc *a2asrv.RequestContext, err error) *a2a.Task {
	body := response.AnswerOf(ctx, e.Log, err).Body
	words := body.Message + " (request_id " + body.RequestID + ")."
	var invalid *entrycheck.Error
	if errors.As(err, &invalid) && invalid.Code == entrycheck.EINVALID {
		words = response.ProblemsText(invalid)
	}
	return final(rc, a2a.TaskStateFailed, nil, nil, text(words), data(body))
}

// final is the task in its state after this message: its history with
// this message, its status message msg (or one of parts when msg is nil)
// and the artifact when there is one.
func final(rc *a2asrv.RequestContext, state a2a.TaskState, msg *a2a.Message, art *a2a.Artifact, parts ...a2a.Part) *a2a.Task {
	if msg == nil {
		msg = a2a.NewMessageForTask(a2a.MessageRoleAgent, rc, parts...)
	}
	now := time.Now()
	t := &a2a.Task{ID: rc.TaskID, ContextID: rc.ContextID, Status: a2a.TaskStatus{State: state, Message: msg, Timestamp: &now}}
	if prev := rc.StoredTask; prev != nil {
		// The stored history ends with this message, when there is one
		// (a cancel has none); the status message it answered goes
		// before it.
		h := prev.History
		if rc.Message != nil && len(h) > 0 {
			h = h[:len(h)-1]
		}
		t.History = append(t.History, h...)
		if prev.Status.Message != nil {
			t.History = append(t.History, prev.Status.Message)
		}
	}
	if rc.Message != nil {
		t.History = append(t.History, rc.Message)
	}
	if art != nil {
		t.Artifacts = []*a2a.Artifact{art}
	}
	return t
}

func text(s string) a2a.Part { return a2a.TextPart{Text: s} }

// data is v as a data part: its JSON as the REST answer writes it.
func data(v any) a2a.Part {
	b, err := response.Marshal(v)
	var m map[string]any
	if err == nil {
		err = json.Unmarshal(b, &m)
	}
	if err != nil { // the answers and error bodies are JSON objects
		panic("a2aserver: an answer is not a JSON object: " + err.Error())
	}
	return a2a.DataPart{Data: m}
}

func requestID(ctx context.Context) string { return request.IDFrom(ctx) }
