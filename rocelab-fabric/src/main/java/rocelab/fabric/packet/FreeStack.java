package rocelab.fabric.packet;

import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * The free objects of a {@link PacketPool}, last in first out (the one freed last is the likeliest still in cache).
 * It grows only when it is pushed more than it ever held: in steady state it does not allocate.
 */
final class FreeStack<T> {
    private T[] items;
    private int count;
    /** The fewest it held since the last {@link #trimIdle}: the bottom ones no taker reached since. */
    private int low;

    FreeStack(T[] initial) {
        this.items = initial;
    }

    int size() {
        return count;
    }

    /** How many it has room for before its array grows. */
    int room() {
        return items.length;
    }

    T pop() {
        T t = items[--count];
        items[count] = null;
        if (count < low) {
            low = count;
        }
        return t;
    }

    void push(T item) {
        if (count == items.length) {
            items = Arrays.copyOf(items, Math.max(16, items.length * 2));
        }
        items[count++] = item;
    }

    /**
     * Room for {@code n} more than it has room for now, at once: a pool that makes {@code n} more packets must have
     * room for every one of its packets when they all come back, or it would grow in steady state.
     */
    void growBy(int n) {
        items = Arrays.copyOf(items, items.length + n);
    }

    /** Forgets every free object (for the collector). */
    void clear() {
        items = Arrays.copyOf(items, 16);
        Arrays.fill(items, null);
        count = 0;
        low = 0;
    }

    /**
     * Forgets half of the objects that lay idle at the bottom since the last call (none was taken from there), when
     * they are more than {@code floor}, and starts the next count of idle ones. Returns how many it forgot. The
     * bottom ones go: the top ones were freed last and are the likeliest in cache. Its room shrinks by as many, so
     * that a run whose packets in flight swing up and down again and again (iterations with compute between) does
     * not add room for each swing's new objects ({@link #growBy}).
     */
    int trimIdle(int floor) {
        int idle = Math.min(low, count);
        int drop = idle > floor ? idle / 2 : 0;
        if (drop > 0) {
            T[] kept = Arrays.copyOf(items, items.length - drop);
            System.arraycopy(items, drop, kept, 0, count - drop);
            Arrays.fill(kept, count - drop, kept.length, null);
            items = kept;
            count -= drop;
        }
        low = count;
        return drop;
    }

    /**
     * Evens out the stacks {@code of} each pool: objects travel from the pool of the partition that takes them to
     * the pool of the one that frees them, so between windows the ones holding more than half again their share give
     * to the ones below it.
     */
    static <T> void even(List<PacketPool> pools, Function<PacketPool, FreeStack<T>> of) {
        long total = 0;
        for (PacketPool p : pools) {
            total += of.apply(p).count;
        }
        int share = (int) (total / pools.size());
        int a = 0;
        for (PacketPool richPool : pools) {
            FreeStack<T> rich = of.apply(richPool);
            while (rich.count > share + share / 2 + 16) {
                while (a < pools.size() && of.apply(pools.get(a)).count >= share) {
                    a++;
                }
                if (a == pools.size()) {
                    return;
                }
                FreeStack<T> poor = of.apply(pools.get(a));
                int move = Math.min(rich.count - share, share - poor.count);
                if (poor.items.length < poor.count + move) {
                    poor.items = Arrays.copyOf(poor.items, Math.max(poor.items.length * 2, poor.count + move));
                }
                System.arraycopy(rich.items, rich.count - move, poor.items, poor.count, move);
                Arrays.fill(rich.items, rich.count - move, rich.count, null);
                rich.count -= move;
                // What it gave was not idle in it: only what is left can have been.
                rich.low = Math.min(rich.low, rich.count);
                poor.count += move;
            }
        }
    }
}
