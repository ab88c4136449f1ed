module github.com/iceagechess/iceage/bench

go 1.26.0

require (
	github.com/corentings/chess/v2 v2.3.2
	github.com/iceagechess/iceage v0.0.0-00010101000000-000000000000
)

require golang.org/x/exp v0.0.0-20250128182459-e0ece0dbea4c // indirect

replace github.com/iceagechess/iceage => ../
