package httpapi

import "kompact/internal/testing/openapicheck"

// CheckedClient returns a client whose requests and answers are held to
// the OpenAPI document (internal/testing/openapicheck), failing t.
var CheckedClient = openapicheck.Client

// CheckedHandler serves h, holding the requests under /v1 and h's answers
// to the OpenAPI document, failing t.
var CheckedHandler = openapicheck.Handler
