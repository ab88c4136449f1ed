// Package discordurl points discordgo at another address than Discord's:
// the fake Discord of the end-to-end tests, or a local relay an operator
// runs in front of Discord.
package discordurl

import "github.com/bwmarrin/discordgo"

// Point sets every string variable of discordgo's endpoints.go, the way
// that file derives them, from base (ending in "/") instead of
// https://discord.com/. The function variables there read these at call
// time. Call it before any session is opened: the variables are globals.
// A test parses endpoints.go to check that none is missing.
func Point(base string) {
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
