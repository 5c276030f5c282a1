package lookout.engine.pva.server;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import lookout.engine.seams.ResolvedNames;

/** What the PVA client would have resolved, set by the test; records want() calls. */
final class FakeResolved implements ResolvedNames {
    final Map<String, Resolution> map = new ConcurrentHashMap<>();
    final List<String> wanted = java.util.Collections.synchronizedList(new ArrayList<>());
    final List<Listener> listeners = new ArrayList<>();

    @Override
    public Resolution lookup(String name) {
        return map.get(name);
    }

    @Override
    public void want(String name) {
        wanted.add(name);
    }

    @Override
    public void addListener(Listener l) {
        listeners.add(l);
    }

    @Override
    public void removeListener(Listener l) {
        listeners.remove(l);
    }

    void resolve(String name, String guid, InetSocketAddress ep) {
        Resolution r = new Resolution(name, guid, ep);
        map.put(name, r);
        listeners.forEach(l -> l.resolved(r));
    }

    void withdraw(String name) {
        Resolution r = map.remove(name);
        listeners.forEach(l -> l.withdrawn(r));
    }
}
