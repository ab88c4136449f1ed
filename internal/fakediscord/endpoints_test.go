package fakediscord_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/internal/fakediscord"
)

// TestEveryEndpointVariableIsSet reads discordgo's endpoints.go and checks
// that point.go sets each of its string variables; the function variables
// there build on them.
func TestEveryEndpointVariableIsSet(t *testing.T) {
	pc := reflect.ValueOf(discordgo.New).Pointer()
	file, _ := runtime.FuncForPC(pc).FileLine(pc)
	path := filepath.Join(filepath.Dir(file), "endpoints.go")
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Skipf("discordgo's source is not at hand: %v", err)
	}
	isFunc := map[string]bool{}
	var names []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, spec := range g.Specs {
			v := spec.(*ast.ValueSpec)
			for i, name := range v.Names {
				switch value := v.Values[i].(type) {
				case *ast.FuncLit:
					isFunc[name.Name] = true
				case *ast.Ident: // an alias of a variable declared above
					isFunc[name.Name] = isFunc[value.Name]
				}
				names = append(names, name.Name)
			}
		}
	}
	point, err := os.ReadFile("point.go")
	if err != nil {
		t.Fatal(err)
	}
	strings := 0
	for _, name := range names {
		if isFunc[name] || name == "APIVersion" {
			continue
		}
		strings++
		if !regexp.MustCompile(`discordgo\.` + name + ` = `).Match(point) {
			t.Errorf("point.go does not set discordgo.%s", name)
		}
	}
	if strings < 30 {
		t.Errorf("found %d string variables in %s; has the file changed?", strings, path)
	}
}

func TestEndpointsAreOnLoopback(t *testing.T) {
	fakediscord.New(t)
	for _, u := range []string{
		discordgo.EndpointDiscord, discordgo.EndpointAPI, discordgo.EndpointGateway, discordgo.EndpointGatewayBot,
		discordgo.EndpointStatus, discordgo.EndpointSmActive, discordgo.EndpointCDN, discordgo.EndpointCDNAttachments,
		discordgo.EndpointVoiceRegions, discordgo.EndpointNitroStickersPacks, discordgo.EndpointGuildCreate,
		discordgo.EndpointOauth2Applications, discordgo.EndpointSKUs, discordgo.EndpointStageInstances,
		discordgo.EndpointUser("1"), discordgo.EndpointUserChannels("@me"), discordgo.EndpointUserAvatar("1", "a"),
		discordgo.EndpointDefaultUserAvatar(1), discordgo.EndpointGuild("1"), discordgo.EndpointGuildMember("1", "2"),
		discordgo.EndpointGuildIcon("1", "h"), discordgo.EndpointGuildEmbed("1"), discordgo.EndpointChannel("1"),
		discordgo.EndpointChannelMessages("1"), discordgo.EndpointChannelMessage("1", "2"),
		discordgo.EndpointChannelMessageThread("1", "2"), discordgo.EndpointChannelThreads("1"),
		discordgo.EndpointWebhookMessage("1", "t", "@original"), discordgo.EndpointInteractionResponse("1", "t"),
		discordgo.EndpointInteractionResponseActions("1", "t"), discordgo.EndpointFollowupMessage("1", "t"),
		discordgo.EndpointApplicationGlobalCommands("1"), discordgo.EndpointApplicationGuildCommands("1", "2"),
		discordgo.EndpointEmoji("1"), discordgo.EndpointSticker("1"), discordgo.EndpointOAuth2Application("1"),
		discordgo.EndpointOauth2ApplicationsBot("1"), discordgo.EndpointEntitlements("1"), discordgo.EndpointPoll("1", "2"),
	} {
		parsed, err := url.Parse(u)
		if err != nil || parsed.Hostname() != "127.0.0.1" || parsed.Scheme != "http" {
			t.Errorf("%s is not on 127.0.0.1 (%v)", u, err)
		}
	}
}
