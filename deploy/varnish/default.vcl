# Varnish 7 in front of the gateway, purged by surrogate key (the xkey module of varnish-modules).
# The gateway tags every public answer with `Surrogate-Key` (what it shows) and `Surrogate-Control` (how long a
# cache in front may keep it); with CDN_PURGE_URL pointing here, each write it sees becomes a
# `PURGE` request whose `xkey-purge` header names the keys to purge. See docs/deployment.md.
vcl 4.1;

import std;
import xkey;

# Where the gateway listens.
backend gateway {
    .host = "127.0.0.1";
    .port = "3000";
}

# Who may purge: the gateways' addresses.
acl purgers {
    "127.0.0.1";
    "::1";
}

sub vcl_recv {
    if (req.method == "PURGE") {
        if (client.ip !~ purgers) {
            return (synth(403, "Forbidden"));
        }
        if (!req.http.xkey-purge) {
            return (synth(400, "No xkey-purge header"));
        }
        set req.http.n-gone = xkey.purge(req.http.xkey-purge);
        return (synth(200, "Purged " + req.http.n-gone));
    }
    # Everything else as Varnish's built-in rules decide: GET and HEAD without Authorization are looked up;
    # POSTs and signed-in readers go to the gateway.
}

sub vcl_backend_response {
    # The keys the xkey index reads.
    if (beresp.http.Surrogate-Key) {
        set beresp.http.xkey = beresp.http.Surrogate-Key;
    }
    # The lifetime the gateway gave caches in front, longer than a browser's: purges end it early.
    if (beresp.http.Surrogate-Control ~ "max-age=[0-9]+") {
        set beresp.ttl = std.duration(regsub(beresp.http.Surrogate-Control, "^.*max-age=([0-9]+).*$", "\1s"), 0s);
        set beresp.grace = 0s;
        if (beresp.http.Surrogate-Control ~ "stale-while-revalidate=[0-9]+") {
            set beresp.grace = std.duration(
                regsub(beresp.http.Surrogate-Control, "^.*stale-while-revalidate=([0-9]+).*$", "\1s"), 0s);
        }
    }
}

sub vcl_deliver {
    # What was for this cache stays here; browsers keep the gateway's own Cache-Control.
    unset resp.http.xkey;
    unset resp.http.Surrogate-Key;
    unset resp.http.Surrogate-Control;
    unset resp.http.CDN-Cache-Control;
    unset resp.http.Cache-Tag;
}
