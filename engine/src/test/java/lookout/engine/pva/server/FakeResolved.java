package lookout.engine.pva.server;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import lookout.engine.seams.ResolvedNames;

/** What the PVA client would have resolved, set by the test; records want() and release() calls. */
final class FakeResolved implements ResolvedNames {
    final Map<String, Resolution> map = new ConcurrentHashMap<>();
    final List<String> wanted = java.util.Collections.synchronizedList(new ArrayList<>());
    final List<String> released = java.util.Collections.synchronizedList(new ArrayList<>());
    /** Names the client searches for reasons of its own (watched). */
    final Set<String> own = ConcurrentHashMap.newKeySet();
    /** Endpoints the engine's own client searches from. */
    final Set<InetSocketAddress> ownSearchers = ConcurrentHashMap.newKeySet();
    final List<Listener> listeners = new CopyOnWriteArrayList<>();

    @Override
    public Resolution lookup(String name) {
        return map.get(name);
    }

    @Override
    public List<Resolution> resolutions() {
        return List.copyOf(map.values());
    }

    @Override
    public Want want(String name) {
        wanted.add(name);
        return own.contains(name) || map.containsKey(name) ? Want.EXISTING : Want.NEW;
    }

    @Override
    public void release(String name) {
        released.add(name);
    }

    @Override
    public boolean isOwnSearcher(InetSocketAddress endpoint) {
        return ownSearchers.contains(endpoint);
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
