package response

import (
	"fmt"
	"strings"

	"github.com/entrycheck/entrycheck"
)

// ProblemsText lists every problem of an invalid request with where it is
// (a parameter or a JSON pointer) and the suggestions.
func ProblemsText(e *entrycheck.Error) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Refused, nothing was counted or charged: %s.", e.Message)
	for _, p := range e.Problems {
		at := p.Field
		if at == "" {
			at = "/"
		}
		fmt.Fprintf(&b, "\n- %s (%s): %s", at, p.Code, p.Message)
	}
	return b.String()
}
