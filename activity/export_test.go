package activity

// ParseMoveRequest is parseMoveRequest, for the benchmarks.
var ParseMoveRequest = parseMoveRequest
