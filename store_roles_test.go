package kompact_test

import (
	"reflect"
	"testing"

	"kompact"
)

// TestStoreRoles: the role interfaces split Store: each method of Store is
// in exactly one role, but Ping and Close, which are Store's own; the
// gateway's role (GatewayStore) is beside Store, none of its methods in it.
func TestStoreRoles(t *testing.T) {
	roles := map[string]reflect.Type{
		"SessionStore":  reflect.TypeFor[kompact.SessionStore](),
		"RevisionStore": reflect.TypeFor[kompact.RevisionStore](),
		"PreviewStore":  reflect.TypeFor[kompact.PreviewStore](),
		"TokenStore":    reflect.TypeFor[kompact.TokenStore](),
	}
	owner := map[string]string{"Ping": "Store", "Close": "Store"}
	for name, role := range roles {
		if role.NumMethod() == 0 {
			t.Errorf("%s has no method", name)
		}
		for i := range role.NumMethod() {
			m := role.Method(i).Name
			if o, ok := owner[m]; ok {
				t.Errorf("%s is in %s and in %s", m, o, name)
			}
			owner[m] = name
		}
	}
	store := reflect.TypeFor[kompact.Store]()
	for i := range store.NumMethod() {
		if m := store.Method(i).Name; owner[m] == "" {
			t.Errorf("Store.%s is in no role", m)
		}
	}
	if store.NumMethod() != len(owner) {
		t.Errorf("Store has %d methods; its roles and its own have %d", store.NumMethod(), len(owner))
	}
	gw := reflect.TypeFor[kompact.GatewayStore]()
	for i := range gw.NumMethod() {
		if m := gw.Method(i).Name; owner[m] != "" {
			t.Errorf("GatewayStore.%s is in %s too", m, owner[m])
		}
	}
}
