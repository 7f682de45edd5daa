package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/http"
	"os"
	"sync"
)

// spoolThreshold is the size up to which a body is held in memory; a
// larger one is written to a temporary file as it arrives, so a 25 MB body
// costs memory only once its signature has verified.
const spoolThreshold = 1 << 20

// readChunk is how much of a body is read at a time.
const readChunk = 32 << 10

// spooled is a request body as the edge received it, with the HMAC under
// each secret and its SHA-256, computed as it streamed past.
type spooled struct {
	mem  []byte
	file *os.File
	size int64
	macs [][]byte
	// sum is the body's SHA-256, set by done.
	sum [sha256.Size]byte
}

// bytes returns the whole body, from memory or read back from its file.
func (s *spooled) bytes() ([]byte, error) {
	if s.file == nil {
		return s.mem, nil
	}
	b := make([]byte, s.size)
	if _, err := s.file.ReadAt(b, 0); err != nil {
		return nil, fmt.Errorf("read spooled body: %w", err)
	}
	return b, nil
}

// close removes the body's file, if it has one, and gives its memory
// back to memPool: nothing of a body is read after close (what a job keeps
// is a copy, decodeOnce).
func (s *spooled) close() {
	if s.file != nil {
		s.file.Close()
		os.Remove(s.file.Name())
	}
	if s.mem != nil {
		m := s.mem[:0]
		memPool.Put(&m)
		s.mem = nil
	}
}

// Buffers are reused from one request to the next: at 1,000 deliveries a
// second of 28 KB each, a fresh read buffer and a body grown by appending
// were most of the edge's allocations (73 KB a request), and so of its
// garbage collections. A pooled buffer only ever grew to hold bytes a
// sender really sent (spoolThreshold at most), never to a declared
// Content-Length.
var (
	// chunkPool holds read buffers of readChunk bytes.
	chunkPool = sync.Pool{New: func() any { b := make([]byte, readChunk); return &b }}
	// memPool holds the memory of bodies held in memory, emptied.
	memPool sync.Pool
)

// pooledMem is an empty buffer from memPool, or nil.
func pooledMem() []byte {
	if m, ok := memPool.Get().(*[]byte); ok {
		return (*m)[:0]
	}
	return nil
}

// spooler writes a body into a spooled as it arrives.
type spooler struct {
	s         *spooled
	macs      []hash.Hash
	digest    hash.Hash
	threshold int64
}

func newSpooler(secrets [][]byte, threshold int64) *spooler {
	if threshold <= 0 {
		threshold = spoolThreshold
	}
	sp := &spooler{s: &spooled{}, digest: sha256.New(), threshold: threshold}
	for _, k := range secrets {
		sp.macs = append(sp.macs, hmac.New(sha256.New, k))
	}
	return sp
}

// write adds p to the body, moving it to a temporary file once it grows
// past the threshold.
func (sp *spooler) write(p []byte) error {
	s := sp.s
	for _, m := range sp.macs {
		m.Write(p)
	}
	sp.digest.Write(p)
	s.size += int64(len(p))
	if s.file == nil && s.size > sp.threshold {
		f, err := os.CreateTemp("", "aepgate-webhook-*")
		if err != nil {
			return fmt.Errorf("spool body: %w", err)
		}
		s.file = f
		// Unlinked at once where the system allows it, so a crash leaves no
		// file behind; close removes it otherwise.
		os.Remove(f.Name())
		_, err = f.Write(s.mem)
		m := s.mem[:0]
		memPool.Put(&m)
		s.mem = nil
		if err != nil {
			return fmt.Errorf("spool body: %w", err)
		}
	}
	if s.file == nil {
		if s.mem == nil {
			s.mem = pooledMem()
		}
		s.mem = append(s.mem, p...)
		return nil
	}
	if _, err := s.file.Write(p); err != nil {
		return fmt.Errorf("spool body: %w", err)
	}
	return nil
}

// done sums the HMACs and returns the body.
func (sp *spooler) done() *spooled {
	for _, m := range sp.macs {
		sp.s.macs = append(sp.s.macs, m.Sum(nil))
	}
	sp.digest.Sum(sp.s.sum[:0])
	return sp.s
}

// Refusals of a body while it is read.
var (
	refTooLarge = refusal{http.StatusRequestEntityTooLarge, "too_large", "payload over 25 MB"}
	refTooSlow  = refusal{http.StatusRequestTimeout, "too_slow", "body arrived slower than 32 KiB/s after 2 s; send it faster"}
	refBusy     = refusal{http.StatusServiceUnavailable, "busy", "too many bytes of deliveries in flight from this address or in all; redeliver later"}
	refTooMany  = refusal{http.StatusTooManyRequests, "too_many", "too many bodies in flight from this address; retry later"}
	refUnread   = refusal{http.StatusBadRequest, "unreadable", "body could not be read"}
	refSpool    = refusal{http.StatusServiceUnavailable, "spool_error", "could not hold the body; redeliver later"}
)

// stream reads r's body through the spooler within limit bytes, charging
// the budget for each chunk past the reserved bytes as it arrives and
// pacing the reads; held is what it took from the budget, to give back
// when the request is done.
func (h *Handler) stream(r *http.Request, c client, p *pacer, sp *spooler, limit, reserved int64) (held int64, ref *refusal) {
	pb := chunkPool.Get().(*[]byte)
	defer chunkPool.Put(pb)
	buf := *pb
	for {
		p.arm(sp.s.size)
		n, err := r.Body.Read(buf)
		if n > 0 {
			took, ref := h.charge(c, sp, int64(n), limit, reserved)
			held += took
			if ref != nil {
				return held, ref
			}
			if err := sp.write(buf[:n]); err != nil {
				h.log.Error("webhook body not spooled", "err", err)
				return held, &refSpool
			}
		}
		switch {
		case errors.Is(err, io.EOF):
			return held, nil
		case err != nil && p.tooSlow(err), err == nil && p.unsupported && p.tooSlow(nil):
			return held, &refTooSlow
		case err != nil:
			return held, &refUnread
		}
	}
}

// charge checks n more bytes against the size cap and takes those past
// the reserved bytes from the budget; took is what it took.
func (h *Handler) charge(c client, sp *spooler, n, limit, reserved int64) (took int64, ref *refusal) {
	if sp.s.size+n > limit {
		return 0, &refTooLarge
	}
	over := min(n, sp.s.size+n-reserved)
	if over <= 0 {
		return 0, nil
	}
	if !h.admit.budget.take(c, over) {
		return 0, &refBusy
	}
	return over, nil
}
