package review

import "strings"

// wrote says whether login authored or committed c: "author",
// "committer" or "". A side GitHub linked to an account is matched by its
// login only. A side linked to none is matched by its e-mail when that is
// a GitHub no-reply address of login (login@users.noreply.github.com or
// <id>+login@users.noreply.github.com), and by its name when the name is
// login (without case).
func wrote(login string, c Commit) string {
	switch {
	case sameSide(login, c.AuthorLogin, c.AuthorEmail, c.AuthorName):
		return "author"
	case sameSide(login, c.CommitterLogin, c.CommitterEmail, c.CommitterName):
		return "committer"
	}
	return ""
}

func sameSide(login, sideLogin, email, name string) bool {
	if sideLogin != "" {
		return sameLogin(login, sideLogin)
	}
	return sameLogin(login, noreplyLogin(email)) || sameLogin(login, strings.TrimSpace(name))
}

// noreplyLogin returns the login of a GitHub no-reply e-mail address, or "".
func noreplyLogin(email string) string {
	local, domain, ok := strings.Cut(strings.ToLower(strings.TrimSpace(email)), "@")
	if !ok || domain != "users.noreply.github.com" {
		return ""
	}
	if _, after, plus := strings.Cut(local, "+"); plus {
		return after
	}
	return local
}
