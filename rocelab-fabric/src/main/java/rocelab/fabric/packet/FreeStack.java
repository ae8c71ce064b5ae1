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

    FreeStack(T[] initial) {
        this.items = initial;
    }

    int size() {
        return count;
    }

    T pop() {
        T t = items[--count];
        items[count] = null;
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
                poor.count += move;
            }
        }
    }
}
