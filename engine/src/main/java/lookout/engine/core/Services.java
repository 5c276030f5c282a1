package lookout.engine.core;

import java.util.ArrayList;
import java.util.List;

/**
 * The engine's services in start order (pools before the resolver that answers DYNA/DYNC from
 * them; PVA client before the PVA server that vouches only for what the client resolved; status
 * last). Stopped in reverse order.
 */
final class Services {

    private Services() {
    }

    static List<Service> create() {
        List<Service> list = new ArrayList<>();
        // pools, resolver, pva client, pva server, status: each work item adds its line here.
        list.add(new lookout.engine.weighted.PoolsService());
        list.add(new lookout.engine.dns.ResolverService());
        list.add(new lookout.engine.pva.client.PvaClientService());
        list.add(new lookout.engine.pva.server.PvaServerService());
        list.add(new lookout.engine.status.StatusService()); // last: serves the others' snapshot
        return list;
    }
}
