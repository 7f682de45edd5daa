// Package checks holds aepgate's check-run model and its rendering: plain
// values in, plain values out. A Run is what one check run on GitHub should
// say; Fit cuts it to GitHub's documented limits, Validate refuses what
// GitHub would refuse, and AnnotationPages splits its annotations into the
// batches the API accepts. The publisher that writes a Run to GitHub lives in
// internal/gh (CheckPublisher); this package never performs I/O.
package checks
