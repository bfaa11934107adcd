;;; emacs.el --- ContactsBook from Emacs with the built-in jsonrpc.el  -*- lexical-binding: t; -*-
;; Try it:  emacs --batch -l docs/recipes/emacs.el
;; CONTACTSBOOK_BIN names the executable (default: contactsbook on PATH);
;; CONTACTSBOOK_DB the book (default: a book that lives only for this run).
;; jsonrpc.el (Emacs 27+) speaks Content-Length framing, which is what the server detects.
;; Notes for jsonrpc.el 1.0.14 (Emacs 28): methods are keywords (`:contacts/search'), and a
;; method without params still needs an object: pass `cb-none', never nil (nil is `null').
(require 'jsonrpc)
(require 'cl-lib)

(defvar cb-none (make-hash-table) "Empty params: serialized as {}.")

(defun cb-log (format-string &rest args)
  (princ (concat (apply #'format format-string args) "\n")))

(defvar cb-connection
  (make-instance
   'jsonrpc-process-connection
   :name "contactsbook"
   :process (make-process
             :name "contactsbook"
             :command (list (or (getenv "CONTACTSBOOK_BIN") "contactsbook")
                            "--rpc" "--db" (or (getenv "CONTACTSBOOK_DB") ":memory:"))
             :connection-type 'pipe
             :coding 'utf-8-emacs-unix
             :noquery t
             :stderr (get-buffer-create "*contactsbook stderr*"))
   ;; Server notifications: session/message, session/stackChanged, session/dataChanged, $/progress.
   :notification-dispatcher
   (lambda (_conn method params)
     (pcase method
       ('session/message (cb-log "message: %s: %s" (plist-get params :kind) (plist-get params :text)))
       ('session/stackChanged
        (cb-log "stack: %s" (mapconcat (lambda (s) (plist-get s :scene)) (plist-get params :stack) " > ")))))
   :request-dispatcher (lambda (_conn _method _params) nil)))

(defun cb-call (method &optional params)
  "Calls METHOD (a keyword such as :contacts/search) synchronously; the result as a plist."
  (jsonrpc-request cb-connection method (or params cb-none) :timeout 10))

(let ((init (cb-call :initialize '(:clientInfo (:name "emacs-recipe")))))
  (cb-log "server: %s %s, protocol %s"
          (plist-get (plist-get init :serverInfo) :name)
          (plist-get (plist-get init :serverInfo) :version)
          (plist-get init :protocolVersion)))
(jsonrpc-notify cb-connection :initialized cb-none)

(cb-call :contacts/add)
(cb-call :form/given '(:value "Ann"))
(cb-call :form/family '(:value "Lee"))
(cb-call :form/email '(:label "work" :value "ann@"))
;; An application error arrives as a `jsonrpc-error' signal with the code and data.
(condition-case err
    (cb-call :form/save)
  (jsonrpc-error
   (let ((details (plist-get (alist-get 'jsonrpc-error-data (cdr err)) :details)))
     (cb-log "save refused: %s %s" (alist-get 'jsonrpc-error-code (cdr err))
             (cl-loop for (field problem) on details by #'cddr
                      collect (format "%s: %s" (substring (symbol-name field) 1) problem))))))
(cb-call :form/clear '(:field "emails"))
(cb-call :form/email '(:label "work" :value "ann@example.org"))
(cb-call :form/save)

(let* ((found (cb-call :contacts/search '(:text "lee")))
       (rows (plist-get (plist-get (aref (plist-get found :displayed) 0) :value) :rows)))
  (cl-loop for row across rows
           do (cb-log "found: %s %s %s" (plist-get row :id) (plist-get row :name) (plist-get row :email))))
(let ((shown (cb-call :contacts/show '(:contact "ann lee"))))
  (cb-log "detail: %s" (plist-get (plist-get (aref (plist-get shown :displayed) 0) :value) :name)))
(cb-call :session/back)

(cb-call :shutdown)
(jsonrpc-notify cb-connection :exit cb-none)
(let ((process (jsonrpc--process cb-connection)))
  (with-timeout (10 (error "contactsbook did not exit"))
    (while (process-live-p process) (accept-process-output process 0.05)))
  (cb-log "exit: %s" (process-exit-status process)))
