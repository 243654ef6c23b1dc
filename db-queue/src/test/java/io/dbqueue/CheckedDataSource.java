package io.dbqueue;

import javax.sql.DataSource;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;

/** A DataSource that runs a test's check before each connection it hands out: to fail, wait or count. */
public final class CheckedDataSource {

    /** What runs before a connection is handed out; what it throws, the connection request throws. */
    public interface Check {
        void beforeConnection() throws Exception;
    }

    private CheckedDataSource() {
    }

    public static DataSource of(DataSource target, Check check) {
        return (DataSource) Proxy.newProxyInstance(CheckedDataSource.class.getClassLoader(),
                new Class<?>[]{DataSource.class}, (self, method, args) -> {
                    if (method.getName().equals("getConnection")) {
                        check.beforeConnection();
                    }
                    try {
                        return method.invoke(target, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
