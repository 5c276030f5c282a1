package lookout.console.pva;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import lookout.console.widgets.Indicator;
import lookout.console.widgets.PlainWords;
import lookout.console.widgets.Times;
import lookout.console.widgets.Why;
import lookout.engine.api.PvaChannelDiagnosis;
import lookout.engine.api.PvaDiscoveredServer;
import lookout.engine.api.PvaNameServerSnapshot;
import lookout.engine.api.PvaSnapshot;

/**
 * "Why isn't this PV resolving?" (or: why is it resolved where it is): the engine's facts about
 * one channel — its searches, the replies for it and where they came from, duplicates, its place
 * in the ring — with the destinations, name servers and servers heard from the PVA section,
 * ending in a plain diagnosis ("no server on 10.0.0.255:5076 claims it; 3 servers are online
 * there") and what to check. Pure.
 */
final class PvWhy {

    private PvWhy() {
    }

    static Why of(PvaChannelDiagnosis d, PvaSnapshot p, String ownGuid, Instant now) {
        String title = "PV " + d.name();
        List<Why.Fact> facts = new ArrayList<>();
        List<String> checks = new ArrayList<>();
        List<String> destinations = p == null ? List.of() : p.destinations();
        List<PvaNameServerSnapshot> nameServers = p == null ? List.of() : p.nameServers();
        List<PvaDiscoveredServer> online = new ArrayList<>();
        if (p != null) {
            for (PvaDiscoveredServer s : p.servers()) {
                if (s.status() == PvaDiscoveredServer.Status.ONLINE) {
                    online.add(s);
                }
            }
        }
        if (!d.known()) {
            facts.add(new Why.Fact("Channel", "none: the client is not searching this name"));
            return new Why(title, "The engine is not searching " + d.name() + ": it was never asked for, or was let go"
                    + " (stopped, or no longer wanted by a client). Search it on the PVA pane to start.",
                    Indicator.Level.INACTIVE, facts, List.of());
        }
        facts.add(new Why.Fact("Why it is searched", origin(d)));
        facts.add(new Why.Fact("State", d.state()));
        String last = d.lastSearchAt() == null ? "not yet" : Times.full(d.lastSearchAt()) + ago(d.lastSearchAt(), now);
        facts.add(new Why.Fact("Searches", d.searches() + " sent; the last " + last
                + (d.nextSearchAt() == null ? "" : "; the next " + Times.full(d.nextSearchAt()) + until(d.nextSearchAt(), now))));
        if ("SEARCHING".equals(d.state())) {
            facts.add(new Why.Fact("Ring", "attempt " + d.attempts() + " of 30, "
                    + (d.bucket() == -2 ? "waiting for its first search" : d.bucket() < 0 ? "not in the ring"
                    : "bucket " + d.bucket() + " (the next tick drains bucket " + d.cursor() + ")")
                    + (d.attempts() >= 30 ? "; at the slowest rate: once per 30-s revolution" : "")));
        }
        List<String> failingDest = new ArrayList<>();
        for (PvaChannelDiagnosis.SendFailure f : d.sendFailures()) {
            failingDest.add(f.destination());
        }
        List<String> destWords = new ArrayList<>();
        for (String dest : destinations) {
            String addr = dest.contains(" ") ? dest.substring(0, dest.indexOf(' ')) : dest;
            PvaChannelDiagnosis.SendFailure f = failure(d, addr);
            destWords.add(dest + (f == null ? "" : ": sends FAIL (" + PlainWords.of(f.error()) + ", " + f.failures()
                    + " failed)"));
        }
        facts.add(new Why.Fact("Searched at (UDP)", destWords.isEmpty() ? "nowhere (no UDP destination)"
                : String.join("; ", destWords)));
        List<String> nsWords = new ArrayList<>();
        int nsReady = 0;
        for (PvaNameServerSnapshot ns : nameServers) {
            nsWords.add(describe(ns));
            if (ready(ns)) {
                nsReady++;
            }
        }
        facts.add(new Why.Fact("Name servers (TCP)", nsWords.isEmpty() ? "none configured" : String.join("; ", nsWords)));
        List<PvaChannelDiagnosis.Reply> resolvedBy = new ArrayList<>();
        List<PvaChannelDiagnosis.Reply> duplicates = new ArrayList<>();
        for (PvaChannelDiagnosis.Reply r : d.replies()) {
            (r.resolved() ? resolvedBy : duplicates).add(r);
            facts.add(new Why.Fact(r.resolved() ? "Claimed by" : "Also claimed by", claim(r, ownGuid)));
        }
        facts.add(new Why.Fact("Replies saying no", d.negativeReplies() == 0 ? "none"
                : d.negativeReplies() + " (from " + String.join(", ", d.negativeFrom()) + ")"));
        facts.add(new Why.Fact("Servers online", online.isEmpty() ? "none heard (beacons, discovery replies)"
                : online.size() + ": " + String.join(", ", online.stream().limit(6).map(s -> s.endpoint()
                        + (s.guid().equalsIgnoreCase(ownGuid) ? " (this engine)" : "")).toList())
                        + (online.size() > 6 ? ", …" : "")));

        String diagnosis;
        Indicator.Level level;
        if ("RESOLVED".equals(d.state())) {
            PvaChannelDiagnosis.Reply first = resolvedBy.isEmpty() ? null : resolvedBy.get(0);
            diagnosis = "Resolved" + (first == null ? "." : ": " + claim(first, ownGuid) + ".");
            level = Indicator.Level.NORMAL;
            if (!duplicates.isEmpty()) {
                level = Indicator.Level.ADVISORY;
                diagnosis += " " + duplicates.size() + " other server" + (duplicates.size() == 1 ? " also claims" : "s also claim")
                        + " it (" + String.join(", ", duplicates.stream().map(r -> r.endpoint() + ", GUID " + r.guid()).toList())
                        + "): the first reply won; two servers serving one name is a configuration error.";
                checks.add("which of " + first.endpoint() + " and " + duplicates.get(0).endpoint() + " should serve "
                        + d.name() + ", and remove it from the other IOC");
            }
        } else {
            level = Indicator.Level.ADVISORY;
            boolean everyDestinationFails = !destinations.isEmpty() && failingDest.size() >= destinations.size();
            if (destinations.isEmpty() && nameServers.isEmpty()) {
                diagnosis = "Nowhere to search: there is no UDP destination (pva.addr_list is empty and auto_addr_list"
                        + " is off) and no name server.";
                checks.add("pva.addr_list on the Configuration pane (Point at a subnet proposes one)");
            } else if (everyDestinationFails && nsReady == 0) {
                level = Indicator.Level.ALARM;
                diagnosis = "No search for it leaves this machine: "
                        + (destinations.size() == 1 ? "its only destination, " + failingDest.get(0) + ", refuses the send"
                        : "every destination refuses the send") + " (" + PlainWords.of(d.sendFailures().get(0).error()) + ")"
                        + (nameServers.isEmpty() ? "" : ", and no name server is connected") + ".";
                checks.add("the address in pva.addr_list: an address this machine can send to (an IPv4 address for the"
                        + " IPv4 search socket, a subnet's broadcast address, a reachable host)");
                checks.add("the route to " + failingDest.get(0) + " and any firewall on this machine");
            } else {
                List<String> where = new ArrayList<>();
                for (String dest : destinations) {
                    String addr = dest.contains(" ") ? dest.substring(0, dest.indexOf(' ')) : dest;
                    if (!failingDest.contains(addr)) {
                        where.add(addr);
                    }
                }
                for (PvaNameServerSnapshot ns : nameServers) {
                    if (ready(ns)) {
                        where.add("the name server " + address(ns));
                    }
                }
                String at = where.isEmpty() ? "anywhere it was searched" : String.join(" or ", where);
                long there = online.stream().filter(s -> onAny(s, where)).count();
                diagnosis = "No server " + (where.isEmpty() ? "" : "on ") + at + " claims it after " + d.searches()
                        + " search" + (d.searches() == 1 ? "" : "es") + "; " + (online.isEmpty() ? "no server has been heard"
                        : there + " server" + (there == 1 ? " is" : "s are") + " online there"
                        + (there != online.size() ? " (" + online.size() + " heard in all)" : ""))
                        + (d.negativeReplies() > 0 ? "; " + d.negativeReplies() + " repl" + (d.negativeReplies() == 1 ? "y says" : "ies say")
                                + " it is not there" : "")
                        + (failingDest.isEmpty() ? "" : "; searches to " + String.join(", ", failingDest) + " do not leave")
                        + ".";
                checks.add("that the IOC serving " + d.name() + " is running, and the name is spelt as it serves it");
                checks.add("that its server is on the subnet of " + at + " and listens for searches on the port searched");
                if (online.isEmpty()) {
                    checks.add("a Discovery ping, to list the servers that can hear this engine's searches");
                }
            }
        }
        return new Why(title, diagnosis, level, facts, checks);
    }

    private static String origin(PvaChannelDiagnosis d) {
        List<String> why = new ArrayList<>();
        if (d.watched()) {
            why.add("in the configuration's watch list (pva.watch)");
        }
        if (d.operator()) {
            why.add("an operator searched it");
        }
        if (d.wanted()) {
            why.add("a client of this engine's own name server asked for it");
        }
        return why.isEmpty() ? "nothing wants it any more: it goes within 20 s" : String.join("; ", why);
    }

    private static PvaChannelDiagnosis.SendFailure failure(PvaChannelDiagnosis d, String address) {
        for (PvaChannelDiagnosis.SendFailure f : d.sendFailures()) {
            if (f.destination().equals(address)) {
                return f;
            }
        }
        return null;
    }

    private static String claim(PvaChannelDiagnosis.Reply r, String ownGuid) {
        return "the server at " + r.endpoint() + " (GUID " + r.guid()
                + (r.guid().equalsIgnoreCase(ownGuid) ? ", this engine" : "") + "), "
                + (r.tcp() ? "through the TCP name server " + r.from() : "in a UDP reply from " + r.from())
                + " at " + Times.full(r.at());
    }

    private static boolean ready(PvaNameServerSnapshot ns) {
        return "READY".equals(ns.state());
    }

    private static String address(PvaNameServerSnapshot ns) {
        return ns.address();
    }

    private static String describe(PvaNameServerSnapshot ns) {
        return ns.address() + " " + ns.state() + ", " + ns.searchesSent() + " searches sent, " + ns.replies() + " replies"
                + (ns.lastError() == null || ns.lastError().isEmpty() ? "" : ", last error: " + PlainWords.of(ns.lastError()));
    }

    /** Whether server {@code s} is at one of {@code where}'s hosts (a unicast destination or a name server). */
    private static boolean onAny(PvaDiscoveredServer s, List<String> where) {
        String host = s.endpoint().contains(":") ? s.endpoint().substring(0, s.endpoint().lastIndexOf(':')) : s.endpoint();
        for (String w : where) {
            String a = w.startsWith("the name server ") ? w.substring("the name server ".length()) : w;
            String h = a.contains(":") ? a.substring(0, a.lastIndexOf(':')) : a;
            if (h.equals(host) || h.endsWith(".255")) {
                return true;
            }
        }
        return false;
    }

    private static String ago(Instant t, Instant now) {
        if (now == null || t == null) {
            return "";
        }
        long ms = Math.max(0, Duration.between(t, now).toMillis());
        return String.format(Locale.ROOT, " (%.1f s ago)", ms / 1000.0);
    }

    private static String until(Instant t, Instant now) {
        if (now == null || t == null) {
            return "";
        }
        long ms = Math.max(0, Duration.between(now, t).toMillis());
        return String.format(Locale.ROOT, " (in %.1f s)", ms / 1000.0);
    }
}
