package web

import (
	"math"
	"net/http"
	"strconv"

	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
)

// leaderboardData is a page of a server's leaderboard.
type leaderboardData struct {
	Rows       []leaderboardRow
	Page       int
	Pages      int
	Prev, Next string // the other pages' addresses, "" at an end
}

type leaderboardRow struct {
	Rank    int
	Name    string
	Rating  string
	Games   int
	WinRate string
}

// leaderboardSize is how many players a page lists.
const leaderboardSize = 50

// ParsePage reads a page number from a query: 1 when absent; ok is
// false for anything but a number from 1 to 100000.
func ParsePage(v string) (int, bool) {
	if v == "" {
		return 1, true
	}
	if len(v) > 6 {
		return 0, false
	}
	n, err := strconv.Atoi(v)
	return n, err == nil && n >= 1 && n <= 100_000
}

// leaderboardPage is a server's leaderboard: the one /leaderboard shows
// in Discord, whose link the bot gives there.
func (s *Server) leaderboardPage(w http.ResponseWriter, r *http.Request) {
	guild, token := r.PathValue("guild"), r.PathValue("token")
	lang := s.lang(r)
	if !ParseGuildRef(guild, token) || !s.keys.CheckGuild(guild, token) {
		s.problem(w, r, http.StatusNotFound, lang, "web.not_found")
		return
	}
	page, ok := ParsePage(r.URL.Query().Get("page"))
	if !ok {
		s.problem(w, r, http.StatusNotFound, lang, "web.not_found")
		return
	}
	st, err := s.opts.Play.Leaderboard(r.Context(), guild, page, leaderboardSize, s.opts.Now())
	if err != nil {
		s.log.Error("web: a leaderboard", "guild", guild, "err", err)
		s.problem(w, r, http.StatusInternalServerError, lang, "web.error")
		return
	}
	d := &leaderboardData{Page: st.Page, Pages: st.Pages}
	for _, row := range st.Rows {
		d.Rows = append(d.Rows, leaderboardRowOf(lang, row))
	}
	here := r.URL.Path
	if st.Page > 1 {
		d.Prev = here + "?page=" + strconv.Itoa(st.Page-1)
	}
	if st.Page < st.Pages {
		d.Next = here + "?page=" + strconv.Itoa(st.Page+1)
	}
	s.page(w, r, http.StatusOK, "leaderboard", pageData{Lang: lang, Title: i18n.T(lang, "web.leaderboard.title", nil), Board: d})
}

func leaderboardRowOf(lang i18n.Lang, r play.Standing) leaderboardRow {
	name := r.Name
	if name == "" {
		name = i18n.T(lang, "web.leaderboard.unnamed", nil)
	}
	rating := i18n.Decimal(lang, math.Round(r.Rating.Rating), 0)
	if r.Rating.Provisional() {
		rating += "?"
	}
	return leaderboardRow{Rank: r.Rank, Name: name, Rating: rating, Games: r.Tally.Games(), WinRate: i18n.Percent(lang, r.WinRate(), 0)}
}
