package io.dbqueue.spring.schedule;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/** A {@link DbQueueScheduled} method of a bean, ready to be called at its ticks. */
record ScheduledMethod(String name, DbQueueScheduled annotation, Object bean, Method invocable) {

    /** Calls the method; what it throws comes out as itself. */
    void invoke() throws Exception {
        try {
            invocable.invoke(bean);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof Exception exception) {
                throw exception;
            }
            throw (Error) e.getCause();
        }
    }
}
