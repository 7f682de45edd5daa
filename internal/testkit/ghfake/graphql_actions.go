package ghfake

import "path"

// workflowRunRes is a WorkflowRun (CheckSuite.workflowRun): the same run,
// ID and number as REST's actions/runs.
type workflowRunRes struct {
	s   *repoState
	run *workflowRun
}

func (r *workflowRunRes) typeName() string { return "WorkflowRun" }

func (r *workflowRunRes) field(_ *gqlExec, name string, _ map[string]any) (any, error) {
	run := r.run
	page := "/" + r.s.fullName + "/actions/runs/" + itoa(run.id)
	switch name {
	case "id":
		return nodeID("WorkflowRun", run.id), nil
	case "databaseId":
		return run.id, nil
	case "runNumber":
		return run.number, nil
	case "event":
		return run.event, nil
	case "url":
		return "https://github.com" + page, nil
	case "resourcePath":
		return page, nil
	case "createdAt":
		return ts(run.created), nil
	case "updatedAt":
		return ts(run.updated), nil
	case "checkSuite":
		return &suiteRes{s: r.s, su: run.suite}, nil
	case "workflow":
		return r.workflow(), nil
	}
	return nil, unknownField("WorkflowRun", name)
}

// workflow is the run's Workflow, as REST's workflow object gives it.
func (r *workflowRunRes) workflow() resolver {
	run := r.run
	page := "/" + r.s.fullName + "/actions/workflows/" + path.Base(run.path)
	return mapRes{"Workflow", map[string]any{"id": nodeID("Workflow", run.workflowID), "databaseId": run.workflowID,
		"name": run.name, "state": "ACTIVE", "url": "https://github.com" + page, "resourcePath": page,
		"createdAt": ts(run.created), "updatedAt": ts(run.created)}}
}
