package api

import (
	"errors"
	"net/http"
)

var errTripsNotAvailable = errors.New("trip evaluation is not available yet")

// paidTrip answers POST /v1/trips/evaluate.
func (s *Server) paidTrip(r *http.Request) (any, error) {
	return nil, errTripsNotAvailable
}
