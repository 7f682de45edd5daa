// Package incrementrules decides when a product increment (a milestone) is
// complete and draws its increment certificate (craft-rules §5.4, §5.5):
// every story counts as done (protocol/closurerules); the integrated candidate
// is the default-branch commit that contains every story's merge commit;
// the required readback workflows succeeded at exactly that commit (run
// IDs, never "green"); the increment's risk tier is the highest of its
// stories, medium and high need every medium or high story certified, and
// high also needs the owner's `/aep accept <milestone> <sha>` bound to the
// candidate; a declared demonstration needs an aep-demo block repeating the
// criterion exactly and naming evidence the App read back. The package is
// pure: facts in, a verdict out; the App gathers the facts and acts.
package incrementrules
