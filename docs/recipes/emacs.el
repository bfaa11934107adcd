;;; emacs.el --- ContactsBook from Emacs with the built-in jsonrpc.el  -*- lexical-binding: t; -*-
;; Try it:  emacs --batch -l docs/recipes/emacs.el
;; CONTACTSBOOK_BIN names the executable (default: contactsbook on PATH);
;; CONTACTSBOOK_DB a book to use (it must exist); by default a temporary book, removed at the end.
;; The recipe takes back the contact it adds (contacts/undo of its own change), so a book it is
;; given is left as it was. Any failure ends Emacs with status 1 and a message on stderr.
;; jsonrpc.el (Emacs 27+) speaks Content-Length framing, which is what the server detects.
;; Notes for jsonrpc.el 1.0.14 (Emacs 28): methods are keywords (`:contacts/search'), and a
;; method without params still needs an object: pass `cb-none', never nil (nil is `null').
(require 'jsonrpc)
(require 'cl-lib)

(defvar cb-none (make-hash-table) "Empty params: serialized as {}.")
(defvar cb-connection nil)
(defvar cb-bin (or (getenv "CONTACTSBOOK_BIN") "contactsbook"))
(defvar cb-given (let ((db (getenv "CONTACTSBOOK_DB"))) (and db (not (string= db "")) db)))
(defvar cb-temporary (unless cb-given (make-temp-file "contactsbook-recipe" t)))
(defvar cb-db (or cb-given (expand-file-name "book.sqlite" cb-temporary)))

(defun cb-log (format-string &rest args)
  (princ (concat (apply #'format format-string args) "\n")))

(defun cb-start ()
  (unless (executable-find cb-bin) (error "Cannot run %s (set CONTACTSBOOK_BIN)" cb-bin))
  (when (and cb-given (not (file-exists-p cb-given))) (error "There is no book at %s (CONTACTSBOOK_DB)" cb-given))
  (setq cb-connection
        (make-instance
         'jsonrpc-process-connection
         :name "contactsbook"
         :process (make-process
                   :name "contactsbook"
                   :command (append (list cb-bin "--rpc" "--db" cb-db) (and cb-temporary '("--create")))
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
         :request-dispatcher (lambda (_conn _method _params) nil))))

(defun cb-call (method &optional params)
  "Calls METHOD (a keyword such as :contacts/search) synchronously; the result as a plist."
  (unless (process-live-p (jsonrpc--process cb-connection))
    (error "contactsbook is not running: %s"
           (with-current-buffer "*contactsbook stderr*" (string-trim (buffer-string)))))
  (jsonrpc-request cb-connection method (or params cb-none) :timeout 10))

(defun cb-value (result)
  "The value of the first ViewModel RESULT displayed."
  (plist-get (aref (plist-get result :displayed) 0) :value))

(defun cb-main ()
  (cb-start)
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
  (let* ((saved (cb-call :form/save))
         (id (plist-get (plist-get (plist-get (aref (plist-get saved :displayed) 1) :value) :row) :id)))
    (cl-loop for row across (plist-get (cb-value (cb-call :contacts/search '(:text "lee"))) :rows)
             when (equal (plist-get row :id) id)
             do (cb-log "found: %s %s" (plist-get row :name) (plist-get row :email)))
    (cb-log "detail: %s" (plist-get (cb-value (cb-call :contacts/show (list :contact id))) :name))
    ;; Take back this recipe's own change (its number in the contact's history).
    (let ((change (aref (plist-get (cb-value (cb-call :contacts/history (list :contact id))) :changes) 0)))
      (cb-call :contacts/undo (list :change (plist-get change :id)))))

  (cb-call :shutdown)
  (jsonrpc-notify cb-connection :exit cb-none)
  (let ((process (jsonrpc--process cb-connection)))
    (with-timeout (10 (error "contactsbook did not exit"))
      (while (process-live-p process) (accept-process-output process 0.05)))
    (cb-log "exit: %s" (process-exit-status process))))

(condition-case failure
    (progn (cb-main)
           (when cb-temporary (delete-directory cb-temporary t)))
  (error
   (when cb-temporary (delete-directory cb-temporary t))
   (message "recipe failed: %s" (error-message-string failure))
   (kill-emacs 1)))
