package checks

// GitHub's limits on check runs, as documented for the Checks API
// (https://docs.github.com/rest/checks/runs#create-a-check-run). Each
// constant quotes its source line.
const (
	// MaxSummaryBytes: "output.summary: The summary of the check run. This
	// parameter supports Markdown. Maximum length: 65535 characters." GitHub
	// counts closer to bytes (github/rest-api-description#5399), so aepgate
	// counts UTF-8 bytes.
	MaxSummaryBytes = 65535

	// MaxTextBytes: "output.text: The details of the check run. This parameter
	// supports Markdown. Maximum length: 65535 characters." Counted in bytes,
	// as MaxSummaryBytes.
	MaxTextBytes = 65535

	// MaxTitleChars: "annotations[].title: The title that represents the
	// annotation. The maximum size is 255 characters." aepgate applies the
	// same bound to the output title.
	MaxTitleChars = 255

	// MaxAnnotationMessageBytes: "annotations[].message: A short description
	// of the feedback for these lines of code. The maximum size is 64 KB."
	MaxAnnotationMessageBytes = 65535

	// MaxAnnotationRawDetailsBytes: "annotations[].raw_details: Details about
	// this annotation. The maximum size is 64 KB."
	MaxAnnotationRawDetailsBytes = 65535

	// AnnotationsPerRequest: "The Checks API limits the number of annotations
	// to a maximum of 50 per API request. To create more than 50 annotations,
	// you have to make multiple requests to the Update a check run endpoint.
	// Each time you update the check run, annotations are appended to the
	// list of annotations that already exist for the check run."
	AnnotationsPerRequest = 50

	// MaxActions: "actions: Displays a button on GitHub that can be clicked to
	// alert your app to do additional tasks. ... A maximum of three actions
	// are accepted."
	MaxActions = 3

	// MaxActionLabelChars: "actions[].label: The text to be displayed on a
	// button in the web UI. The maximum size is 20 characters."
	MaxActionLabelChars = 20

	// MaxActionDescriptionChars: "actions[].description: A short explanation
	// of what this action would do. The maximum size is 40 characters."
	MaxActionDescriptionChars = 40

	// MaxActionIdentifierChars: "actions[].identifier: A reference for the
	// action on the integrator's system. The maximum size is 20 characters."
	MaxActionIdentifierChars = 20
)
