package attest

import (
	"testing"
)

// BenchmarkSignCertificate measures what signing adds to issuing a
// certificate (budget: 1 ms), as wall time and CPU time per operation.
func BenchmarkSignCertificate(b *testing.B) {
	cert := canonicalOf(b, sampleCert())
	for _, s := range []struct {
		name string
		s    *Signer
	}{{"ed25519", edSigner(b, 1)}, {"p-256", p256Signer(b, 7)}} {
		b.Run(s.name, func(b *testing.B) {
			start := cpuTime()
			for b.Loop() {
				if _, err := SignCertificate(s.s, Unit, repo, cert); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkVerify measures offline verification of one envelope.
func BenchmarkVerify(b *testing.B) {
	s := edSigner(b, 1)
	raw := envelopeJSON(b, s, canonicalOf(b, sampleCert()))
	r := ring(s)
	start := cpuTime()
	for b.Loop() {
		if _, err := Verify(raw, r, Want{SHA: shaM}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}
