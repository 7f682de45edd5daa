package ghfake

import (
	"net/http"
	"strconv"
)

// deploymentRoutes serves the deployments that jobs waiting on a custom
// deployment protection rule made (RequestDeployment).
func (f *Fake) deploymentRoutes() {
	// https://docs.github.com/rest/deployments/deployments#get-a-deployment
	f.handle("GET /repos/{owner}/{repo}/deployments/{deployment_id}", read("deployments"), getDeployment)
}

// getDeployment answers with the deployment of that ID, with the fields
// GitHub's "Get a deployment" returns.
func getDeployment(c *call) (int, any) {
	id, _ := strconv.ParseInt(c.r.PathValue("deployment_id"), 10, 64)
	for _, run := range c.repo.runs {
		for _, d := range run.deploys {
			if d.id != id {
				continue
			}
			api := c.f.api(c.repo) + "/deployments/" + itoa(d.id)
			return http.StatusOK, obj{"url": api, "id": d.id, "node_id": nodeID("Deployment", d.id), "sha": run.headSHA, "ref": run.headBranch,
				"task": "deploy", "payload": obj{}, "original_environment": d.environment, "environment": d.environment, "description": nil,
				"creator": c.f.userJSON(run.actor), "created_at": ts(run.created), "updated_at": ts(run.updated),
				"statuses_url": api + "/statuses", "repository_url": c.f.api(c.repo), "transient_environment": false, "production_environment": false}
		}
	}
	return notFound()
}
