import ErrorStreaming

// What the simulated app can fail with, one type per domain, so the dashboard's per-type filters (`1`…`9`)
// separate credentials from network from server problems. Each type classifies itself: a stable code, a message
// for the user and one for the developer.
