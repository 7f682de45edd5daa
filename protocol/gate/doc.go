// Package gate models owner gates (craft-rules §3.1–§3.6): gate records,
// owner-only categories and external effects, scopes and check actions, the
// canonical decision fingerprint, HOLD/RESUME, direct-owner resolution, and
// the check that says whether an action may proceed.
//
// State is derived, never stored: Replay turns an ordered list of events
// (create, hold, resolve, resume — from a JSON file or from GitHub comments
// the App has authenticated) into gates, and Evaluate decides one action.
// Both are pure functions. Where craft-protocol fails open aepgate fails
// closed: a malformed event blocks every action, and a gate whose owner
// answered HOLD or its safe default keeps blocking.
package gate
