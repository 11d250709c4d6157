package org.dataloader4j.benchmarks;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Counts the collector's stop-the-world pauses while open, from the collectors' notifications:
 * their number, total and longest duration. Concurrent cycles (G1's {@code G1 Concurrent GC},
 * ZGC's and Shenandoah's {@code Cycles}) run beside the application and are not pauses.
 */
public final class GcPauses implements NotificationListener, AutoCloseable {
    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private int count;
    private long totalMillis;
    private long maxMillis;

    /** Starts counting. */
    public GcPauses() {
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(this, null, null);
                emitters.add(emitter);
            }
        }
    }

    @Override
    public synchronized void handleNotification(Notification n, Object handback) {
        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
            return;
        }
        GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
        String name = info.getGcName();
        if (name.contains("Concurrent") || name.endsWith("Cycles")) {
            return;
        }
        long millis = info.getGcInfo().getDuration();
        count++;
        totalMillis += millis;
        maxMillis = Math.max(maxMillis, millis);
    }

    /** Pauses so far. */
    public synchronized int count() {
        return count;
    }

    /** Their total duration in ms (the JVM reports whole milliseconds). */
    public synchronized long totalMillis() {
        return totalMillis;
    }

    /** The longest in ms. */
    public synchronized long maxMillis() {
        return maxMillis;
    }

    /** Stops counting; the figures stay readable. */
    @Override
    public void close() {
        for (NotificationEmitter e : emitters) {
            try {
                e.removeNotificationListener(this);
            } catch (ListenerNotFoundException ignored) {
                // Never added, so nothing to remove.
            }
        }
        emitters.clear();
    }
}
