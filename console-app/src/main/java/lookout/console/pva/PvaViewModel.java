package lookout.console.pva;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.LongProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleLongProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.collections.transformation.FilteredList;
import lookout.console.widgets.Indicator;
import lookout.console.widgets.KeyedRows;
import lookout.console.widgets.Props;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.PvaChannelSnapshot;
import lookout.engine.api.PvaDiscoveredServer;
import lookout.engine.api.PvaServerSnapshot;
import lookout.engine.api.PvaSnapshot;
import lookout.engine.api.PvaTickSnapshot;
import lookout.engine.api.StatusPvsSnapshot;

/**
 * The PVA pane without a toolkit: the search ring (30 buckets and the cursor, seed 002 §3.2), the
 * channels, the discovered servers (seed 002 §7), the engine's own server, duplicate claims, and
 * the operator's actions (search a PV, search now, discovery ping).
 *
 * <p>Concurrency: UI thread only. Rows are updated in place ({@link KeyedRows}).
 */
public final class PvaViewModel {

    /** seed 002 §3.2: the ring has 30 buckets. */
    public static final int RING_BUCKETS = 30;
    static final int HISTORY = 20;

    /** The engine commands this pane sends (the gateway in the console). */
    public interface Commands {
        CompletableFuture<Void> searchPv(String name);

        CompletableFuture<Void> dropPv(String name);

        CompletableFuture<Boolean> searchNow();

        CompletableFuture<Void> discoveryPing();

        /** What the engine's PVA client knows about one name (for "why?"). */
        default CompletableFuture<lookout.engine.api.PvaChannelDiagnosis> diagnosePv(String name) {
            return CompletableFuture.failedFuture(new UnsupportedOperationException("this engine cannot say why"));
        }
    }

    private final Commands commands;

    /**
     * Puts a proposed configuration (PVA search and beacon addresses, broadcast port) in front of
     * the operator on the Configuration pane; nothing is applied here. Returns a message.
     */
    @FunctionalInterface
    public interface SubnetProposer {
        String propose(List<String> addresses, int broadcastPort);
    }

    private SubnetProposer proposer = (a, p) -> "Not available.";
    private final StringProperty subnetAddresses = new SimpleStringProperty("");
    private final StringProperty subnetPort = new SimpleStringProperty("5076");
    private final Indicator status = new Indicator();
    private final ReadOnlyStringWrapper detail = new ReadOnlyStringWrapper("");
    private final List<IntegerProperty> buckets = new ArrayList<>();
    private final IntegerProperty cursor = new SimpleIntegerProperty(-1);
    private final IntegerProperty bucketMax = new SimpleIntegerProperty(0);
    private final LongProperty searching = new SimpleLongProperty();
    private final LongProperty ringTotal = new SimpleLongProperty();
    private final BooleanProperty hurryUp = new SimpleBooleanProperty();
    private final BooleanProperty running = new SimpleBooleanProperty();
    private final ReadOnlyStringWrapper ringText = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper tickText = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper serverText = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper ownServerText = new ReadOnlyStringWrapper("");
    private final lookout.console.widgets.Note action = new lookout.console.widgets.Note();
    /** Names the operator stopped that the engine still lists (until it lets them go). */
    private final java.util.Set<String> stopping = new java.util.HashSet<>();
    private String ownGuid = "";
    private final StringProperty readOnly = new SimpleStringProperty("");
    private final StringProperty serverFilter = new SimpleStringProperty("");
    private final ObservableList<String> searchHistory = FXCollections.observableArrayList();
    private final ObservableList<String> duplicateClaims = FXCollections.observableArrayList();
    /** The snapshot time channel rows are updated against (UI thread). */
    private Instant applyingAt = Instant.EPOCH;
    private final KeyedRows<String, PvaChannelSnapshot, ChannelRow> channels =
            new KeyedRows<>(PvaChannelSnapshot::name, c -> new ChannelRow(c.name()), this::updateChannel);
    private final KeyedRows<ServerKey, PvaDiscoveredServer, ServerRow> servers =
            new KeyedRows<>(s -> new ServerKey(s.guid(), s.endpoint()), s -> new ServerRow(s.guid(), s.endpoint()),
                    this::updateServer);
    private int online;
    private int stale;
    private int offline;

    /** A server table entry is one GUID at one endpoint (a restart shows as a new GUID). */
    private record ServerKey(String guid, String endpoint) {
    }
    private final FilteredList<ServerRow> visibleServers = new FilteredList<>(servers.rows(), r -> true);
    private final KeyedRows<String, StatusPvsSnapshot.Pv, StatusPvRow> statusPvs =
            new KeyedRows<>(StatusPvsSnapshot.Pv::name, v -> new StatusPvRow(v.name()), PvaViewModel::updateStatusPv);
    private final ReadOnlyStringWrapper statusPvText = new ReadOnlyStringWrapper("");
    /** The pane's tab titles: what each tab holds, the count an operator looks for, "⚠" while abnormal. */
    private final ReadOnlyStringWrapper channelsTitle = new ReadOnlyStringWrapper(CHANNELS);
    private final ReadOnlyStringWrapper serversTitle = new ReadOnlyStringWrapper(SERVERS);
    private final ReadOnlyStringWrapper ownTitle = new ReadOnlyStringWrapper(OWN);
    private final ReadOnlyStringWrapper statusPvsTitle = new ReadOnlyStringWrapper(STATUS_PVS);
    private boolean ownRefusing;
    static final String CHANNELS = "PVs";
    static final String SERVERS = "Servers";
    static final String OWN = "This engine's server";
    static final String STATUS_PVS = "Status PVs";

    public PvaViewModel(Commands commands) {
        this.commands = commands;
        for (int i = 0; i < RING_BUCKETS; i++) {
            buckets.add(new SimpleIntegerProperty());
        }
        status.set("Waiting for the first snapshot…", Indicator.Level.INACTIVE);
        serverFilter.addListener((o, a, b) -> refilter());
        subnetPort.addListener((o, a, b) -> portEdited |= !updatingPort);
    }

    /** The operator typed a port: snapshots stop prefilling it. */
    private boolean portEdited;
    private boolean updatingPort;

    // ------------------------------------------------------------------ properties

    public Indicator status() {
        return status;
    }

    public ReadOnlyStringProperty detailProperty() {
        return detail.getReadOnlyProperty();
    }

    /** Channels per ring bucket, 30 of them, updated in place. */
    public List<IntegerProperty> buckets() {
        return buckets;
    }

    /** The bucket the next tick drains, or -1 when not running. */
    public IntegerProperty cursorProperty() {
        return cursor;
    }

    /** The fullest bucket (the bars' scale), at least 1. */
    public IntegerProperty bucketMaxProperty() {
        return bucketMax;
    }

    public LongProperty searchingProperty() {
        return searching;
    }

    /** Sum of the bucket bars (what the ring holds now). */
    public LongProperty ringTotalProperty() {
        return ringTotal;
    }

    public BooleanProperty hurryUpProperty() {
        return hurryUp;
    }

    /**
     * Why this console may not change the engine, or empty when it may: search, stop searching,
     * search now and discovery ping refuse then (each is a write of the control API).
     */
    public StringProperty readOnlyProperty() {
        return readOnly;
    }

    /** True when {@link #readOnlyProperty()} stops the action: says so as the action's message. */
    private boolean refused(String what) {
        if (readOnly.get().isEmpty()) {
            return false;
        }
        action.say(what + ": " + readOnly.get());
        return true;
    }

    public BooleanProperty runningProperty() {
        return running;
    }

    public ReadOnlyStringProperty ringTextProperty() {
        return ringText.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty tickTextProperty() {
        return tickText.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty serverTextProperty() {
        return serverText.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty ownServerTextProperty() {
        return ownServerText.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty actionMessageProperty() {
        return action.textProperty();
    }

    /** The last action's message; it clears itself after a while (the view's timer). */
    public lookout.console.widgets.Note actionNote() {
        return action;
    }

    /** The engine's own PVA server's GUID, or empty when it runs none. */
    public String ownGuid() {
        return ownGuid;
    }

    public StringProperty serverFilterProperty() {
        return serverFilter;
    }

    /** Names searched from the console, most recent first. */
    public ObservableList<String> searchHistory() {
        return searchHistory;
    }

    public ObservableList<String> duplicateClaims() {
        return duplicateClaims;
    }

    public ObservableList<ChannelRow> channels() {
        return channels.rows();
    }

    public ObservableList<ServerRow> servers() {
        return servers.rows();
    }

    /** The engine's own status PVs (status.pv_prefix), in publication order. */
    public ObservableList<StatusPvRow> statusPvs() {
        return statusPvs.rows();
    }

    public ReadOnlyStringProperty statusPvTextProperty() {
        return statusPvText.getReadOnlyProperty();
    }

    public FilteredList<ServerRow> visibleServers() {
        return visibleServers;
    }

    public ReadOnlyStringProperty channelsTitleProperty() {
        return channelsTitle.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty serversTitleProperty() {
        return serversTitle.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty ownTitleProperty() {
        return ownTitle.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty statusPvsTitleProperty() {
        return statusPvsTitle.getReadOnlyProperty();
    }

    /** The tab titles from this snapshot (a null {@code p}: no client running). */
    private void titles(PvaSnapshot p, PvaServerSnapshot own, StatusPvsSnapshot pvs) {
        if (p == null || !p.running()) {
            channelsTitle.set(CHANNELS);
            serversTitle.set(SERVERS);
        } else {
            channelsTitle.set(CHANNELS + ": " + p.channelCount()
                    + (p.searching() > 0 ? " · " + p.searching() + " searching" : p.channelCount() > 0 ? " · all resolved" : ""));
            serversTitle.set(SERVERS + ": " + online + " online" + (stale > 0 ? " · " + stale + " stale" : "")
                    + (offline > 0 ? " · ⚠ " + offline + " offline" : ""));
        }
        ownRefusing = own != null && own.running() && own.onDemand() != null && !own.onDemand().refusing().isEmpty();
        ownTitle();
        long alarms = pvs == null ? 0 : pvs.pvs().stream().filter(v -> !"NO_ALARM".equals(v.severity())).count();
        statusPvsTitle.set(pvs == null ? STATUS_PVS : STATUS_PVS + ": " + pvs.pvs().size()
                + (alarms > 0 ? " · ⚠ " + alarms + " in alarm" : "") + (pvs.served() ? "" : " · ⚠ not served"));
    }

    private void ownTitle() {
        int d = duplicateClaims.size();
        ownTitle.set(OWN + (ownRefusing ? " · ⚠ refusing names" : "")
                + (d > 0 ? " · ⚠ " + d + " duplicate claim" + (d == 1 ? "" : "s") : ""));
    }

    private void refilter() {
        String f = serverFilter.get() == null ? "" : serverFilter.get().strip().toLowerCase(Locale.ROOT);
        visibleServers.setPredicate(f.isEmpty() ? r -> true
                : r -> r.guid().toLowerCase(Locale.ROOT).contains(f) || r.endpoint().toLowerCase(Locale.ROOT).contains(f)
                        || (r.status() != null && r.status().name().toLowerCase(Locale.ROOT).contains(f)));
    }

    // ------------------------------------------------------------------ snapshots and events

    public void onSnapshot(EngineSnapshot s) {
        PvaSnapshot p = s.pva();
        PvaServerSnapshot own = s.pvaServer();
        ownServerText.set(describeOwn(own));
        StatusPvsSnapshot pvs = s.statusPvs();
        statusPvs.sync(pvs == null ? List.of() : pvs.pvs());
        statusPvText.set(describeStatusPvs(pvs));
        ownGuid = own == null || !own.running() || own.guid() == null ? "" : own.guid();
        lastPva = p;
        if (p == null || !p.running()) {
            titles(null, own, pvs);
            running.set(false);
            status.set("Not running: the engine has no PVA client running.", Indicator.Level.INACTIVE);
            detail.set("No ring, channels or servers to show: nothing here is invented.");
            cursor.set(-1);
            buckets.forEach(b -> b.set(0));
            searching.set(0);
            ringTotal.set(0);
            channels.sync(List.of());
            servers.sync(List.of());
            return;
        }
        running.set(true);
        if (!portEdited && p.beaconPort() > 0) {
            updatingPort = true;
            subnetPort.set(Integer.toString(p.beaconPort())); // start from what runs (pva.broadcast_port)
            updatingPort = false;
        }
        status.set("Running.", Indicator.Level.NORMAL);
        detail.set("Search destinations: " + (p.destinations().isEmpty() ? "none" : String.join(", ", p.destinations())));
        int max = 1;
        long total = 0;
        for (int i = 0; i < RING_BUCKETS; i++) {
            int n = i < p.buckets().size() ? p.buckets().get(i) : 0;
            buckets.get(i).set(n);
            max = Math.max(max, n);
            total += n;
        }
        bucketMax.set(max);
        ringTotal.set(total);
        cursor.set(p.cursor());
        searching.set(p.searching());
        hurryUp.set(p.hurryUp());
        ringText.set(p.searching() + " searching · " + p.resolved() + " resolved · " + p.channelCount() + " channels"
                + (p.initialList() > 0 ? " · " + p.initialList() + " waiting for the first search" : "")
                + (p.hurryUp() ? " · HURRY-UP (" + p.hurryUpTicksLeft() + " fast ticks left)" : ""));
        PvaTickSnapshot t = p.lastTick();
        tickText.set(t == null || t.at() == null ? "No tick yet."
                : "Last tick: bucket " + (t.bucket() < 0 ? "initial list" : t.bucket()) + " · " + t.names() + " names · "
                        + t.datagrams() + " datagrams · " + t.bytes() + " bytes" + (t.fast() ? " (fast)" : ""));
        applyingAt = s.takenAt();
        channels.sync(p.channels());
        if (!stopping.isEmpty()) {
            java.util.Set<String> listed = new java.util.HashSet<>();
            for (PvaChannelSnapshot c : p.channels()) {
                listed.add(c.name());
            }
            for (java.util.Iterator<String> it = stopping.iterator(); it.hasNext();) {
                String n = it.next();
                if (!listed.contains(n) && !p.channelsTruncated()) {
                    it.remove();
                    action.say("Stopped searching " + n + ": the engine no longer searches it.");
                }
            }
        }
        online = 0;
        stale = 0;
        offline = 0;
        servers.sync(p.servers());
        for (PvaDiscoveredServer d : p.servers()) {
            count(d.status());
        }
        serverText.set(online + " online · " + stale + " stale · " + offline + " offline"
                + " (table " + p.servers().size() + " / " + p.serverTableLimit() + ")");
        if (!serverFilter.get().isEmpty()) {
            refilter(); // a status change can move a row in or out of the filter
        }
        titles(p, own, pvs);
    }

    private static String describeStatusPvs(StatusPvsSnapshot p) {
        if (p == null) {
            return "No status PVs: set status => { pv_prefix => \"PREFIX\" } to publish the engine's state as PVA PVs.";
        }
        if (p.pvs().isEmpty()) {
            return "Status PVs under " + p.prefix() + ": publishing at the next tick.";
        }
        String served = p.served() ? "" : " · NOT SERVED: " + p.notServed();
        return p.pvs().size() + " status PVs under " + p.prefix() + " · " + p.connections() + " client connection"
                + (p.connections() == 1 ? "" : "s") + ", " + p.monitors() + " monitor" + (p.monitors() == 1 ? "" : "s")
                + " · " + p.updatesSent() + " updates sent" + served;
    }

    private static void updateStatusPv(StatusPvRow r, StatusPvsSnapshot.Pv v) {
        Props.set(r.type, v.type());
        Props.set(r.value, v.value());
        Props.set(r.alarm, v.severity().equals("NO_ALARM") ? "NO_ALARM" : v.severity() + ": " + v.message());
        Props.set(r.rule, v.rule());
        r.monitors.set(v.monitors());
    }

    private void updateChannel(ChannelRow r, PvaChannelSnapshot c) {
        // a channel neither watched nor an operator's is searched for a client of the engine's own
        // name server (or is going, once the operator stopped it)
        Props.set(r.origin, c.watched() ? "watch" : c.operator() ? "operator" : stopping.contains(c.name()) ? "" : "a client");
        Props.set(r.watched, c.watched());
        boolean going = stopping.contains(c.name()) && !c.watched() && !c.operator();
        Props.set(r.state, going && "SEARCHING".equals(c.state()) ? "STOPPING" : c.state());
        r.attempts.set(c.attempts());
        r.nextSearchMillis.set(c.nextSearchAt() == null ? -1 : Math.max(0, Duration.between(applyingAt, c.nextSearchAt()).toMillis()));
        r.bucket.set(c.bucket());
        Props.set(r.server, c.endpoint() == null ? "" : c.endpoint());
        Props.set(r.guid, c.guid() == null ? "" : c.guid());
    }

    private void updateServer(ServerRow r, PvaDiscoveredServer d) {
        Props.set(r.own, !ownGuid.isEmpty() && ownGuid.equalsIgnoreCase(d.guid()));
        Props.set(r.protocol, d.protocol());
        Props.set(r.firstSeen, d.firstSeen());
        Props.set(r.lastSeen, d.lastSeen());
        Props.set(r.beaconPeriod, d.observedPeriod());
        r.restarts.set(d.restarts());
        Props.set(r.status, d.status());
    }

    private void count(PvaDiscoveredServer.Status st) {
        switch (st) {
            case ONLINE -> online++;
            case STALE -> stale++;
            case OFFLINE -> offline++;
        }
    }

    public void onEvents(List<EngineEvent> batch) {
        for (EngineEvent e : batch) {
            if (e instanceof EngineEvent.DuplicatePvClaim d) {
                duplicateClaims.add(0, lookout.console.widgets.Times.clock(d.at()) + "  " + d.name() + ": resolved to " + d.resolvedEndpoint()
                        + ", also claimed by " + d.otherEndpoint() + " (GUID " + d.otherGuid() + ")");
                if (duplicateClaims.size() > 200) {
                    duplicateClaims.remove(200, duplicateClaims.size());
                }
                ownTitle();
            }
        }
    }

    private static String describeOwn(PvaServerSnapshot own) {
        if (own == null || !own.running()) {
            return "Own PVA server: not running.";
        }
        return "Own PVA server: GUID " + own.guid() + " · UDP " + own.udpPort()
                + (own.tcpPort() > 0 ? " · name server TCP " + own.tcpPort() + " (" + own.nameServerConnections() + " connected)" : "")
                + " · searches " + own.searchesReceived() + " · replies " + own.repliesSent()
                + " · beacons " + own.beaconsSent() + (own.forwarding() ? " · forwarding" : "")
                + describeOnDemand(own.onDemand());
    }

    /**
     * The names the own server searches for its clients, and what it refuses when a limit is
     * reached (issue 18): plain words, the busiest client named; abnormal only while refusing.
     */
    static String describeOnDemand(PvaServerSnapshot.OnDemand od) {
        if (od == null || od.limit() == 0) {
            return "";
        }
        StringBuilder b = new StringBuilder("\nSearched for clients: ").append(od.unresolved()).append(" of ")
                .append(od.limit()).append(" unresolved, ").append(od.resolved()).append(" resolved");
        if (od.refusedTotal() > 0) {
            b.append(" · refused ").append(od.refusedTotal());
        }
        if (!od.refusing().isEmpty()) {
            b.append("\nRefusing new names now (").append(String.join(", ", od.refusing()).replace('_', ' '))
                    .append("): they are not searched until a client asks again and there is room");
        }
        if (!od.topClients().isEmpty() && (od.refusedTotal() > 0 || od.unresolved() > 0)) {
            b.append("\nTop clients: ");
            int n = 0;
            for (PvaServerSnapshot.Client c : od.topClients()) {
                if (n == 3) {
                    break;
                }
                b.append(n++ == 0 ? "" : "; ").append(c.client()).append(" holds ").append(c.unresolved())
                        .append(c.refused() > 0 ? ", refused " + c.refused() : "");
            }
        }
        return b.toString();
    }

    static String seconds(Duration d) {
        return String.format(Locale.ROOT, "%.1f s", Math.max(0, d.toMillis()) / 1000.0);
    }

    // ------------------------------------------------------------------ actions

    public void setSubnetProposer(SubnetProposer p) {
        this.proposer = p;
    }

    /** Address list for the subnet toolbar: space or comma separated, {@code host} or {@code host:port}. */
    public StringProperty subnetAddressesProperty() {
        return subnetAddresses;
    }

    public StringProperty subnetPortProperty() {
        return subnetPort;
    }

    /**
     * Checks the toolbar's fields and proposes the edit: {@code pva.addr_list} and
     * {@code pva.beacon_addr_list} set to the addresses, {@code pva.broadcast_port} to the port,
     * auto address lists off (the operator names the subnet explicitly).
     */
    public void proposeSubnet() {
        List<String> addrs = new ArrayList<>();
        for (String a : subnetAddresses.get().split("[,\\s]+")) {
            if (!a.isBlank()) {
                addrs.add(a.strip());
            }
        }
        if (addrs.isEmpty()) {
            action.say("Give at least one address (e.g. the subnet's broadcast address 10.0.0.255).");
            return;
        }
        int port;
        try {
            port = Integer.parseInt(subnetPort.get().strip());
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 1 || port > 65535) {
            action.say("The broadcast port must be 1 to 65535 (EPICS default 5076).");
            return;
        }
        action.say(proposer.propose(addrs, port));
    }

    /** Searches a PV name (remembered in the history). */
    public CompletableFuture<Void> search(String name) {
        String n = name == null ? "" : name.strip();
        if (n.isEmpty()) {
            action.say("Type a PV name first.");
            return CompletableFuture.completedFuture(null);
        }
        if (refused("Not searched")) {
            return CompletableFuture.completedFuture(null);
        }
        searchHistory.remove(n);
        searchHistory.add(0, n);
        if (searchHistory.size() > HISTORY) {
            searchHistory.remove(HISTORY, searchHistory.size());
        }
        stopping.remove(n);
        action.say("Searching " + n + "…");
        return commands.searchPv(n).whenComplete((v, e) -> action.say(e == null ? "Searching " + n + "."
                : "Search " + n + " FAILED: " + lookout.console.widgets.PlainWords.of(rootMessage(e))));
    }

    /**
     * Stops searching {@code name}, and says what really becomes of it: a PV the configuration
     * watches goes on being searched (said, not hidden), any other reads STOPPING until the engine
     * lets it go (within two 10-s sweeps), then its row goes.
     */
    public CompletableFuture<Void> drop(String name) {
        if (refused("Not stopped")) {
            return CompletableFuture.completedFuture(null);
        }
        ChannelRow row = channels.get(name);
        boolean watched = row != null && row.watched.get();
        return commands.dropPv(name).whenComplete((v, e) -> {
            if (e != null) {
                action.say("Stop searching " + name + " FAILED: " + lookout.console.widgets.PlainWords.of(rootMessage(e)));
            } else if (watched) {
                action.say(name + " is in the configuration's watch list (pva.watch): the engine keeps searching it"
                        + " until it is taken out of that list on the Configuration pane.");
            } else if (row == null) {
                action.say("Not searching " + name + ".");
            } else {
                stopping.add(name);
                Props.set(row.state, "SEARCHING".equals(row.state()) ? "STOPPING" : row.state());
                Props.set(row.origin, "");
                action.say("Stopping " + name + ": the engine lets it go within 20 s (it is no longer wanted).");
            }
        });
    }

    /** seed 002 §3.2 hurry-up: refused inside the 30-s holdoff. */
    public CompletableFuture<Boolean> searchNow() {
        if (refused("No search now")) {
            return CompletableFuture.completedFuture(false);
        }
        return commands.searchNow().whenComplete((ok, e) -> action.say(e != null
                ? "Search now FAILED: " + lookout.console.widgets.PlainWords.of(rootMessage(e))
                : Boolean.TRUE.equals(ok) ? "Hurry-up started: searching every 200 ms for one revolution."
                : "Search now refused: a hurry-up ran less than 30 s ago; try again in a moment."));
    }

    public CompletableFuture<Void> discoveryPing() {
        if (refused("No discovery ping")) {
            return CompletableFuture.completedFuture(null);
        }
        return commands.discoveryPing().whenComplete((v, e) -> action.say(e == null ? "Discovery ping sent."
                : "Discovery ping FAILED: " + lookout.console.widgets.PlainWords.of(rootMessage(e))));
    }

    /** The last PVA section and the engine's own server, for "why?". */
    private PvaSnapshot lastPva;

    /**
     * Why {@code name} is in its state (issue 17 item 12): the engine's facts about the channel
     * (searches, replies and from where, duplicates, the ring) with the destinations, name
     * servers and servers heard from the last snapshot, ending in a diagnosis. Completes on the UI
     * thread.
     */
    public CompletableFuture<lookout.console.widgets.Why> why(String name) {
        String n = name == null ? "" : name.strip();
        PvaSnapshot p = lastPva;
        String own = ownGuid;
        Instant at = applyingAt;
        return commands.diagnosePv(n).thenApply(d -> PvWhy.of(d, p, own, at));
    }

    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && (t instanceof java.util.concurrent.CompletionException
                || t instanceof java.util.concurrent.ExecutionException)) {
            t = t.getCause();
        }
        return t.getMessage();
    }
}
