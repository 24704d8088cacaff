package io.capstan.flink.mysql.bench.endtoend;

import com.sun.management.GarbageCollectionNotificationInfo;

import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The heap a phase needed: the largest heap in use right after a garbage collection during the
 * phase (the live set plus what survived; what a reader really holds), and the JVM's peak heap use
 * (the sum of each heap pool's peak, so an upper bound that includes garbage).
 *
 * <p>The whole benchmark runs in one JVM (data generator, readers, and for the Flink phases a
 * MiniCluster), so the figures are for that JVM, not for one reader alone.
 */
final class HeapWatch implements AutoCloseable {

    private final AtomicLong maxAfterGc = new AtomicLong();
    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private final NotificationListener listener =
            (notification, handback) -> {
                if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(
                        notification.getType())) {
                    GarbageCollectionNotificationInfo info =
                            GarbageCollectionNotificationInfo.from(
                                    (CompositeData) notification.getUserData());
                    long used = 0;
                    for (var e : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
                        if (isHeapPool(e.getKey())) {
                            used += e.getValue().getUsed();
                        }
                    }
                    maxAfterGc.accumulateAndGet(used, Math::max);
                }
            };

    private HeapWatch() {}

    /** Starts watching: resets the pools' peaks. */
    static HeapWatch start() {
        HeapWatch w = new HeapWatch();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pool.resetPeakUsage();
            }
        }
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter) {
                NotificationEmitter e = (NotificationEmitter) gc;
                e.addNotificationListener(w.listener, null, null);
                w.emitters.add(e);
            }
        }
        return w;
    }

    /** The largest heap in use after a GC during the phase, in bytes (0 if no GC ran). */
    long maxUsedAfterGc() {
        return maxAfterGc.get();
    }

    /** The sum of the heap pools' peaks since {@link #start()}, in bytes. */
    static long peakUsed() {
        long sum = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                MemoryUsage peak = pool.getPeakUsage();
                sum += peak == null ? 0 : peak.getUsed();
            }
        }
        return sum;
    }

    private static boolean isHeapPool(String name) {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getName().equals(name)) {
                return pool.getType() == MemoryType.HEAP;
            }
        }
        return false;
    }

    @Override
    public void close() {
        for (NotificationEmitter e : emitters) {
            try {
                e.removeNotificationListener(listener);
            } catch (javax.management.ListenerNotFoundException ignored) {
                // already gone
            }
        }
    }
}
