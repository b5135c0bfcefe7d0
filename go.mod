module github.com/stalepr/stalepr

go 1.26.0

require (
	github.com/getkin/kin-openapi v0.153.0
	github.com/google/go-github/v62 v62.0.0
	github.com/moby/patternmatcher v0.6.1
	github.com/sethvargo/go-githubactions v1.3.2
	github.com/vektah/gqlparser/v2 v2.5.64
	go.yaml.in/yaml/v4 v4.0.0
	golang.org/x/oauth2 v0.38.0
)

require (
	github.com/agnivade/levenshtein v1.2.2 // indirect
	github.com/go-openapi/jsonpointer v0.22.5 // indirect
	github.com/go-openapi/swag/jsonname v0.25.5 // indirect
	github.com/google/go-querystring v1.1.0 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3 // indirect
	golang.org/x/text v0.14.0 // indirect
)
