package checks

// AnnotationPages splits anns into batches of at most AnnotationsPerRequest,
// in order: the first goes with the create (or update) request and each
// later one with a PATCH that appends it. No annotations give no pages.
func AnnotationPages(anns []Annotation) [][]Annotation {
	var pages [][]Annotation
	for len(anns) > 0 {
		n := min(len(anns), AnnotationsPerRequest)
		pages = append(pages, anns[:n:n])
		anns = anns[n:]
	}
	return pages
}
