package route

import (
	"context"
	"fmt"
	"reflect"
)

// Where is what a piece of work runs for: the repository and the delivery
// (or the sweep, or a fanout) that asked for it.
type Where struct {
	Installation int64
	Owner, Repo  string
	// Delivery is the webhook delivery's ID ("" for the sweep and
	// fanouts) and Event its event (the App names those of the sweep and
	// fanouts, which the ledger records).
	Delivery, Event string
	// Sweep is set for the work of the periodic sweep.
	Sweep bool
}

// FullName is the repository's "owner/name".
func (w Where) FullName() string { return w.Owner + "/" + w.Repo }

// Work is one typed piece of work a family derives from a delivery (or the
// sweep and fanouts produce): a plain value whose kind names it; the
// feature that owns the kind registers who does it (Handle).
type Work interface {
	WorkKind() string
}

// Handlers are who does each kind of work, by its Go type.
type Handlers struct {
	byType map[reflect.Type]func(ctx context.Context, w Where, x Work) error
}

// Handle registers fn as who does the work of type T (a second
// registration of T replaces the first).
func Handle[T Work](h *Handlers, fn func(ctx context.Context, w Where, j T) error) {
	if h.byType == nil {
		h.byType = map[reflect.Type]func(context.Context, Where, Work) error{}
	}
	h.byType[reflect.TypeFor[T]()] = func(ctx context.Context, w Where, x Work) error { return fn(ctx, w, x.(T)) }
}

// Run does each piece of work in order; the first error stops it, and a
// kind nobody registered is an error before it is tried.
func (h *Handlers) Run(ctx context.Context, w Where, ws []Work) error {
	for _, x := range ws {
		if x == nil {
			return fmt.Errorf("route: nil work for %s", w.FullName())
		}
		fn, ok := h.byType[reflect.TypeOf(x)]
		if !ok {
			return fmt.Errorf("route: no handler registered for work %s (%T): register one with route.Handle", x.WorkKind(), x)
		}
		if err := fn(ctx, w, x); err != nil {
			return err
		}
	}
	return nil
}
