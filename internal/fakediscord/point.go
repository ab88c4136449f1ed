package fakediscord

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"

	"github.com/bwmarrin/discordgo"
)

// discordgo keeps Discord's addresses in package variables. They are set
// once per process, by the first New, to a router on 127.0.0.1 that hands
// each request to the Server whose token it carries; they are never set
// back, because a discordgo goroutine of an earlier test may still read them
// and writing them again would race with it.
var (
	pointOnce sync.Once
	pointErr  error

	routesMu sync.Mutex
	routes   = map[string]*Server{} // by token
)

func register(s *Server) {
	routesMu.Lock()
	defer routesMu.Unlock()
	routes[s.token] = s
}

func unregister(s *Server) {
	routesMu.Lock()
	defer routesMu.Unlock()
	delete(routes, s.token)
}

// route hands a request to the Server whose bot token it carries.
func route(w http.ResponseWriter, r *http.Request) {
	routesMu.Lock()
	s := routes[strings.TrimPrefix(r.Header.Get("Authorization"), "Bot ")]
	routesMu.Unlock()
	if s == nil {
		writeError(w, errUnauthorized)
		return
	}
	s.serveHTTP(w, r)
}

// pointDiscordgo starts the router, once per process, and points discordgo's
// endpoint variables at it.
func pointDiscordgo() error {
	pointOnce.Do(func() {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			pointErr = fmt.Errorf("listening on 127.0.0.1: %w", err)
			return
		}
		go http.Serve(ln, http.HandlerFunc(route))
		setEndpoints("http://" + ln.Addr().String() + "/")
	})
	return pointErr
}

// setEndpoints sets every string variable of discordgo's endpoints.go, the
// way that file derives them, from base instead of https://discord.com/.
// The function variables there read these at call time. A test parses
// endpoints.go to check that none is missing.
func setEndpoints(base string) {
	discordgo.EndpointStatus = base + "status/api/v2/"
	discordgo.EndpointSm = discordgo.EndpointStatus + "scheduled-maintenances/"
	discordgo.EndpointSmActive = discordgo.EndpointSm + "active.json"
	discordgo.EndpointSmUpcoming = discordgo.EndpointSm + "upcoming.json"

	discordgo.EndpointDiscord = base
	discordgo.EndpointAPI = discordgo.EndpointDiscord + "api/v" + discordgo.APIVersion + "/"
	discordgo.EndpointGuilds = discordgo.EndpointAPI + "guilds/"
	discordgo.EndpointChannels = discordgo.EndpointAPI + "channels/"
	discordgo.EndpointUsers = discordgo.EndpointAPI + "users/"
	discordgo.EndpointGateway = discordgo.EndpointAPI + "gateway"
	discordgo.EndpointGatewayBot = discordgo.EndpointGateway + "/bot"
	discordgo.EndpointWebhooks = discordgo.EndpointAPI + "webhooks/"
	discordgo.EndpointStickers = discordgo.EndpointAPI + "stickers/"
	discordgo.EndpointStageInstances = discordgo.EndpointAPI + "stage-instances"
	discordgo.EndpointSKUs = discordgo.EndpointAPI + "skus"

	discordgo.EndpointCDN = base + "cdn/"
	discordgo.EndpointCDNAttachments = discordgo.EndpointCDN + "attachments/"
	discordgo.EndpointCDNAvatars = discordgo.EndpointCDN + "avatars/"
	discordgo.EndpointCDNIcons = discordgo.EndpointCDN + "icons/"
	discordgo.EndpointCDNSplashes = discordgo.EndpointCDN + "splashes/"
	discordgo.EndpointCDNChannelIcons = discordgo.EndpointCDN + "channel-icons/"
	discordgo.EndpointCDNBanners = discordgo.EndpointCDN + "banners/"
	discordgo.EndpointCDNGuilds = discordgo.EndpointCDN + "guilds/"
	discordgo.EndpointCDNRoleIcons = discordgo.EndpointCDN + "role-icons/"

	discordgo.EndpointVoice = discordgo.EndpointAPI + "/voice/"
	discordgo.EndpointVoiceRegions = discordgo.EndpointVoice + "regions"
	discordgo.EndpointNitroStickersPacks = discordgo.EndpointAPI + "/sticker-packs"
	discordgo.EndpointGuildCreate = discordgo.EndpointAPI + "guilds"
	discordgo.EndpointApplications = discordgo.EndpointAPI + "applications"

	discordgo.EndpointOAuth2 = discordgo.EndpointAPI + "oauth2/"
	discordgo.EndpointOAuth2Applications = discordgo.EndpointOAuth2 + "applications"
	discordgo.EndpointOauth2 = discordgo.EndpointOAuth2
	discordgo.EndpointOauth2Applications = discordgo.EndpointOAuth2Applications
}
