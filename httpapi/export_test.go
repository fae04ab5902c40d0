package httpapi

// CheckedClient returns a client whose requests and answers are held to
// the OpenAPI document (openapi_check_internal_test.go), failing t.
var CheckedClient = checkedClient

// CheckedHandler serves h, holding the requests under /v1 and h's answers
// to the OpenAPI document, failing t.
var CheckedHandler = checkedHandler
