package lookout.engine.dns.upstream;

/**
 * The deadlines of every upstream transaction in flight, in the order they were set: seed 000
 * gives each transaction two seconds from its send (§4.6.2, §4.6.4, the TCP retry included), so
 * deadlines set one after the other fall due one after the other, and a ring in that order is a
 * timer queue — one scheduler timer for all of them, at the first, instead of one each; a
 * transaction that ends takes its entry out in constant time. Later deadlines may be set earlier
 * than ones before them (a clock that steps back); they then wait behind those, never lost.
 *
 * <p>A pure structure: every method takes {@code now} or a deadline (scheduler nanoseconds,
 * compared by difference, so a clock that wraps past {@code Long.MAX_VALUE} is fine); nothing here
 * reads a clock. Concurrency: the engine loop's, like the transactions.
 *
 * @param <T> what falls due (a transaction)
 */
public final class Deadlines<T> {

    private Object[] items = new Object[256];
    private long[] due = new long[256];
    /** Sequence numbers: entries {@code [head, tail)} are in the ring, removed ones null. */
    private long head;
    private long tail;
    private int live;

    /** Sets {@code item}'s deadline; returns its entry, for {@link #remove}. */
    public long add(T item, long deadline) {
        if (tail - head == items.length) {
            grow();
        }
        int i = (int) (tail & (items.length - 1));
        items[i] = item;
        due[i] = deadline;
        live++;
        return tail++;
    }

    /** Takes entry {@code entry} out (its item ended first); nothing when it is gone already. */
    public void remove(long entry) {
        if (entry < head || entry >= tail) {
            return;
        }
        int i = (int) (entry & (items.length - 1));
        if (items[i] != null) {
            items[i] = null;
            live--;
        }
        skipRemoved();
    }

    /** The first entry's item if its deadline is at or before {@code now}, taken out; else null. */
    @SuppressWarnings("unchecked")
    public T pollDue(long now) {
        skipRemoved();
        if (head == tail) {
            return null;
        }
        int i = (int) (head & (items.length - 1));
        if (due[i] - now > 0) {
            return null;
        }
        T item = (T) items[i];
        items[i] = null;
        live--;
        head++;
        return item;
    }

    /** The first entry's deadline; meaningful only when {@link #isEmpty} is false. */
    public long first() {
        skipRemoved();
        return due[(int) (head & (items.length - 1))];
    }

    public boolean isEmpty() {
        return live == 0;
    }

    /** Deadlines set and not yet due or removed. */
    public int size() {
        return live;
    }

    private void skipRemoved() {
        while (head < tail && items[(int) (head & (items.length - 1))] == null) {
            head++;
        }
    }

    private void grow() {
        int n = items.length;
        Object[] ni = new Object[n * 2];
        long[] nd = new long[n * 2];
        for (long s = head; s < tail; s++) {
            int from = (int) (s & (n - 1));
            int to = (int) (s & (2 * n - 1));
            ni[to] = items[from];
            nd[to] = due[from];
        }
        items = ni;
        due = nd;
    }
}
