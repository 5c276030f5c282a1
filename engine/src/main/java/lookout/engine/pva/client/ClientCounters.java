package lookout.engine.pva.client;

import lookout.engine.api.PvaCounters;

/**
 * What the PVA client counts, beside the state machines that do the work: each part of the client
 * adds to its own fields, the status reads them all.
 *
 * <p>Concurrency: engine loop only.
 */
final class ClientCounters {

    // the ring driver
    long searchDatagrams;
    long searchBytes;
    long searchNames;
    long discoveryPings;
    long hurryUps;
    // the fan-out
    long sendErrors;
    // reply and beacon processing
    long replies;
    long ignoredGuid;
    long resolvedTotal;
    long duplicateClaims;
    long beacons;
    long discoveryReplies;
    long malformed;
    long ignored;
    // the registry
    long namesTooLong;

    /** The counters as the API shows them, with the server table's refusals. */
    PvaCounters snapshot(long serverTableRefused) {
        return new PvaCounters(searchDatagrams, searchBytes, searchNames, sendErrors, replies, ignoredGuid,
                resolvedTotal, duplicateClaims, beacons, discoveryReplies, discoveryPings, malformed, ignored,
                serverTableRefused, namesTooLong, hurryUps);
    }
}
